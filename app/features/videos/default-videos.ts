import type { ArticleCategory } from "~/domain/article-categories";

/**
 * The catalogue seeded on the first start (spec: public-side section 9 gives the counts per
 * category: home security 3, home remodeling 1, greening tips 10, energy saving tips 9, home
 * improvement 1, homeowners news 3, insurance 8, smart home tech 5, decor 6).
 *
 * Real, public videos: how-to videos from This Old House, and homeowner advice from real estate
 * and insurance professionals (insurance, security, smart homes, staging and color). Each sits
 * where a member would look for it; a few fit two topics (the Future House tours, an energy
 * tips video) and are listed in both, so every category starts with the spec's count. A
 * super_admin replaces or adds videos in the admin panel. Durations are left blank rather than
 * guessed.
 */
export interface DefaultVideo {
  category: ArticleCategory;
  title: string;
  description: string;
  youtubeId: string;
}

const v = (category: ArticleCategory, youtubeId: string, title: string, description: string): DefaultVideo => ({
  category,
  youtubeId,
  title,
  description,
});

export const DEFAULT_VIDEOS: ReadonlyArray<DefaultVideo> = [
  v(
    "home_security",
    "FArTQnaSS_Q",
    "How to Keep Your Home Safe and Protected",
    "Burglar alarms, temperature and water sensors that warn you while you are away, and why a vacation post can wait until you are back.",
  ),
  v(
    "home_security",
    "r8moaWCzNNo",
    "How Can You Keep Your Home Safe During Your Holiday Vacation?",
    "Five tips before a trip: a Wi-Fi doorbell, exterior and motion lighting, a trusted neighbor, and held mail and deliveries.",
  ),
  v(
    "home_security",
    "EP4jGBa3A7A",
    "5 Tips for Keeping Your Home Safe While on Vacation",
    "Video doorbells, motion-activated lights, neighbors who know you are gone, and other easy steps against break-ins.",
  ),
  v(
    "home_remodeling",
    "8AcjY8haQHc",
    "How to Replace a Vinyl Floor with Ceramic Tile",
    "Tearing out sheet vinyl, preparing the subfloor and laying, cutting and grouting ceramic tile.",
  ),
  v(
    "greening_tips",
    "eFJEyyMOl3g",
    "How to Plant a Home Orchard",
    "Choosing, spacing and planting fruit trees so a backyard orchard produces for years.",
  ),
  v(
    "greening_tips",
    "njd40kPWY84",
    "How to Set Up a Beehive",
    "Placing and assembling a hive and introducing a colony of honeybees to a backyard garden.",
  ),
  v(
    "greening_tips",
    "AaoiPppRfnk",
    "How to Harvest Honey from a Beehive",
    "Removing frames, uncapping the comb and extracting honey from a backyard hive.",
  ),
  v("greening_tips", "Dajur0NKq0g", "How to Make Maple Syrup", "Tapping maple trees in late winter and boiling the sap down to syrup."),
  v(
    "greening_tips",
    "Z2eLdeTl35c",
    "How to Install an Alternative to Gutters",
    "Leading rainwater off the roof and into the ground or a barrel instead of down a gutter and into the street.",
  ),
  v(
    "greening_tips",
    "Uy0SEG36bEM",
    "Future House: Net Zero Neighborhood",
    "A visit to a neighborhood of homes that produce as much energy as they use.",
  ),
  v(
    "greening_tips",
    "N3Em64OBGqI",
    "Future House: Living Off the Grid Comfortably",
    "A home that makes its own power and water and still feels like an ordinary house.",
  ),
  v(
    "greening_tips",
    "YbnxRjEdmFs",
    "4 Tips for an Energy-Efficient Home",
    "Heavier window treatments, cold-water laundry, LED bulbs and more house plants: small changes that cut energy use and emissions.",
  ),
  v(
    "greening_tips",
    "UlEPwJmMgJM",
    "Should You Add a Solar Panel to Your Home?",
    "When rooftop solar pays off for a homeowner, and what it means when the time comes to sell.",
  ),
  v(
    "greening_tips",
    "TwgnoFGd5f4",
    "Do Solar Panels Help or Hinder a Listing's Potential?",
    "The environmental and energy benefits of solar panels, and what a lease or lien on them means for a sale.",
  ),
  v(
    "energy_saving_tips",
    "u8jM9z3scQk",
    "Energy-Efficient HVAC, Oak-Floor Patch",
    "This Old House episode on upgrading to an efficient heating and cooling system, with an oak floor repair.",
  ),
  v(
    "energy_saving_tips",
    "cUjLarKDlOI",
    "How to Maintain an Air Conditioner",
    "Cleaning the condenser, straightening fins and changing filters so the air conditioner runs efficiently.",
  ),
  v(
    "energy_saving_tips",
    "ozaw9QhxkQU",
    "How to Install a Ductless Mini-Split Air Conditioner",
    "Efficient heating and cooling for rooms without ductwork: placing and mounting a mini-split system.",
  ),
  v(
    "energy_saving_tips",
    "-33wjzNxgSw",
    "How to Repair a Frozen Air Conditioner",
    "Why an air conditioner ices up, how to thaw it and how to keep it from happening again.",
  ),
  v(
    "energy_saving_tips",
    "1w1rpvDCe24",
    "Air Conditioning Refrigerant Leak Fixed",
    "Finding and repairing a refrigerant leak that made an air conditioner run without cooling.",
  ),
  v(
    "energy_saving_tips",
    "fPFsp7cP7Bs",
    "The Best Ways to Make Your Home More Energy Efficient",
    "Sealing ducts and vents, replacing single-pane windows and tired insulation, and when an energy audit is worth it.",
  ),
  v(
    "energy_saving_tips",
    "YbnxRjEdmFs",
    "4 Tips for an Energy-Efficient Home",
    "Heavier window treatments, cold-water laundry, LED bulbs and more house plants: small changes that cut energy use and emissions.",
  ),
  v(
    "energy_saving_tips",
    "N3Em64OBGqI",
    "Future House: Living Off the Grid Comfortably",
    "A home that makes its own power and water and still feels like an ordinary house.",
  ),
  v(
    "energy_saving_tips",
    "Uy0SEG36bEM",
    "Future House: Net Zero Neighborhood",
    "A visit to a neighborhood of homes that produce as much energy as they use.",
  ),
  v(
    "home_improvement",
    "KwrQWUzzsmw",
    "How to Build Porch Stairs",
    "Laying out stringers, treads and risers for sturdy, code-friendly porch steps.",
  ),
  v(
    "homeowners_news",
    "wfvd3LzVmhg",
    "Future House: Touring a Napa Valley Smart House",
    "A tour of a connected home and the technology homeowners can expect next.",
  ),
  v(
    "homeowners_news",
    "N3Em64OBGqI",
    "Future House: Living Off the Grid Comfortably",
    "A home that makes its own power and water and still feels like an ordinary house.",
  ),
  v(
    "homeowners_news",
    "Uy0SEG36bEM",
    "Future House: Net Zero Neighborhood",
    "A visit to a neighborhood of homes that produce as much energy as they use.",
  ),
  v(
    "insurance",
    "EzBn4pJBi9I",
    "What Your Home Insurance Should Cover",
    "Three things to check in a homeowner's policy: enough dwelling coverage to rebuild, loss of use for the months it takes, and your contents.",
  ),
  v(
    "insurance",
    "qQPDr_XuMiM",
    "How to Influence a Lower Homeowner's Insurance Premium",
    "What sets a homeowner's premium and what you control: claims, credit, distance to the fire station and the deductible.",
  ),
  v(
    "insurance",
    "zL3_Q4AXlms",
    "What Insurance Do I Need?",
    "Title insurance and homeowners insurance when you buy a home, and extra cover such as flood, earthquake or water backup.",
  ),
  v(
    "insurance",
    "gE4KpKeokNA",
    "How Can Insurance Prepare You for Disasters?",
    "An insurance agent on annual policy reviews and insuring a home to its current replacement value before disaster strikes.",
  ),
  v(
    "insurance",
    "6ip4YxVYvKI",
    "Things to Know About Flood Insurance",
    "Flood zones, when a lender requires flood insurance, and why homes outside a flood zone should ask about water damage too.",
  ),
  v(
    "insurance",
    "pmCBnFg4A_w",
    "Tips for Anyone That May Be in or Near Flood Areas",
    "Flood insurance and FEMA's repetitive loss list: what it means for a homeowner and for a buyer looking at a house.",
  ),
  v(
    "insurance",
    "R3R42lJASNg",
    "You Could Be in Trouble Without Title Insurance",
    "What owner's title insurance is, how it differs from the lender's policy, and why it is a one-time payment worth making.",
  ),
  v(
    "insurance",
    "berd7n2mVvU",
    "Everything You Need to Know About Home Warranties",
    "What a home warranty covers, how it differs from insurance, and whether to include one when buying or selling.",
  ),
  v(
    "smart_home_tech",
    "wfvd3LzVmhg",
    "Future House: Touring a Napa Valley Smart House",
    "A tour of a connected home and the technology homeowners can expect next.",
  ),
  v(
    "smart_home_tech",
    "vTwyInX4KyM",
    "Most Smart Devices Are Incredibly Dumb",
    "Automating lights, heating and the security system with a local home hub that keeps working without the internet.",
  ),
  v(
    "smart_home_tech",
    "uieM18rZdHY",
    "3 Smart Home Devices to Make Your Life Easier",
    "A smart lock you open from anywhere, a smart thermostat that saves on energy bills, and cameras to keep an eye on the house.",
  ),
  v(
    "smart_home_tech",
    "kDFf1zfHndc",
    "4 Tech Features That Improve a Home's Value",
    "Smart thermostats, surveillance cameras and a doorbell with a webcam, and smart kitchen equipment that buyers look for.",
  ),
  v(
    "smart_home_tech",
    "3b8PAvQfQoY",
    "Use Technology to Draw Buyers to Your Home",
    "Smart thermostats, discreet home surveillance and touchless kitchen fixtures, and why buyers value them.",
  ),
  v(
    "decor",
    "e-xaCbdDKsU",
    "Design Tips for Home Sellers",
    "A style director's quick ways to freshen up the dining room, kitchen, living room and bedroom with current decor.",
  ),
  v(
    "decor",
    "BZVTNmUbmQc",
    "Looking at the Latest Home Color Trends With an Expert",
    "The quickest way to update a home is color: black and charcoal, denim, greens that bring the outdoors in, and sand tones.",
  ),
  v(
    "decor",
    "uny2hZdsKPg",
    "How to Stage Your Home for Success",
    "Curb appeal, an inviting ambience, furniture that opens up floor space, and making the most of a quirky corner.",
  ),
  v(
    "decor",
    "dVs3fLuzG4I",
    "How to Properly Stage Your Home",
    "Staging while you still live there: fewer personal items, each room back to its purpose, and a storage unit for the rest.",
  ),
  v(
    "decor",
    "bLJxzA-rWhM",
    "5 Ways to Tidy Your Home",
    "Curb appeal, clutter-free counters, a deep clean and furniture arranged for open, easy-to-walk rooms.",
  ),
  v("decor", "zXoi-uyDeX0", "How to Create a Dutch Door", "Turning an ordinary door into a charming split Dutch door."),
];

export const SPEC_VIDEO_COUNTS: Readonly<Record<string, number>> = {
  home_security: 3,
  home_remodeling: 1,
  greening_tips: 10,
  energy_saving_tips: 9,
  home_improvement: 1,
  homeowners_news: 3,
  insurance: 8,
  smart_home_tech: 5,
  decor: 6,
};
