import type { ArticleCategory } from "~/features/articles/categories";

/**
 * The catalogue seeded on the first start (spec: public-side section 9 gives the counts per
 * category: home security 3, home remodeling 1, greening tips 10, energy saving tips 9, home
 * improvement 1, homeowners news 3, insurance 8, smart home tech 5, decor 6).
 *
 * Real, public how-to videos, mostly from This Old House. Some fit two topics and are listed in
 * both, so that every category starts with the number of videos the spec gives; a super_admin
 * replaces or adds videos in the admin panel. Durations are left blank rather than guessed.
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
    "JV8nBPWWZD0",
    "How to Install a Sliding Glass Door",
    "Replacing an old, loose sliding door with a tight, well-latched unit: removal, shimming, flashing and adjustment.",
  ),
  v(
    "home_security",
    "vTwyInX4KyM",
    "Most Smart Devices Are Incredibly Dumb",
    "Automating lights, heating and the security system with a local home hub that keeps working without the internet.",
  ),
  v(
    "home_security",
    "LkZe8A5h7Os",
    "How to Cut Down a Dangerous Tree",
    "When a tree leans toward the house: how an arborist takes it down safely before a storm does.",
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
    "A drip edge and gravel trench that carries roof runoff away from the foundation without gutters.",
  ),
  v(
    "greening_tips",
    "C39FWbhqiSA",
    "How to Install a Channel Drain",
    "Catching surface water on a driveway or patio and sending it away from the house.",
  ),
  v(
    "greening_tips",
    "Gw7BSrWH1Ck",
    "How to Rebuild a Hose Spigot",
    "Fixing a dripping outdoor faucet by replacing its washer and packing instead of wasting water.",
  ),
  v(
    "greening_tips",
    "sPXbqcm8GQI",
    "How to Replace a Rotted Fence Post",
    "Removing a rotted post and setting a new one that lasts, without taking the fence apart.",
  ),
  v(
    "greening_tips",
    "4ysD3jN5C7Y",
    "How to Build a Bluestone Walkway",
    "Laying out, excavating and setting a natural-stone path that drains well.",
  ),
  v(
    "greening_tips",
    "Uy0SEG36bEM",
    "Future House: Net Zero Neighborhood",
    "A visit to a neighborhood of homes that produce as much energy as they use.",
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
    "VHESd9jyOzE",
    "How to Replace a Skylight",
    "Swapping a leaky, drafty skylight for a tight, insulated unit with proper flashing.",
  ),
  v(
    "energy_saving_tips",
    "-CnNijEGA6M",
    "How to Install a Propane-Fueled Stove",
    "Adding an efficient propane stove as a heat source, with safe venting and clearances.",
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
    "23amU7EWy7g",
    "How to Repair a Cracked Floor Joist",
    "Sistering a cracked joist before a sagging floor turns into structural damage.",
  ),
  v(
    "insurance",
    "4DYzcyQaNuc",
    "How to Repair a Damaged Carrying Beam",
    "Shoring up and repairing the main beam that carries the floors above.",
  ),
  v(
    "insurance",
    "s6naaDBrZSc",
    "How to Repair a Rotted Porch Post",
    "Replacing a rotted post before the porch roof sags, with the roof safely supported.",
  ),
  v(
    "insurance",
    "nRR27lR5l4E",
    "How to Replace a Broken Front Porch Board",
    "Cutting out a broken board and fitting a new one so no one trips or falls through.",
  ),
  v(
    "insurance",
    "LkZe8A5h7Os",
    "How to Cut Down a Dangerous Tree",
    "When a tree leans toward the house: how an arborist takes it down safely before a storm does.",
  ),
  v(
    "insurance",
    "NfR2KIdndPo",
    "How to Replace a Stair Railing",
    "Removing a wobbly railing and installing a solid one that keeps the stairs safe.",
  ),
  v(
    "insurance",
    "Z2eLdeTl35c",
    "How to Install an Alternative to Gutters",
    "A drip edge and gravel trench that carries roof runoff away from the foundation without gutters.",
  ),
  v(
    "insurance",
    "C39FWbhqiSA",
    "How to Install a Channel Drain",
    "Catching surface water on a driveway or patio and sending it away from the house.",
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
    "N3Em64OBGqI",
    "Future House: Living Off the Grid Comfortably",
    "A home that makes its own power and water and still feels like an ordinary house.",
  ),
  v(
    "smart_home_tech",
    "Uy0SEG36bEM",
    "Future House: Net Zero Neighborhood",
    "A visit to a neighborhood of homes that produce as much energy as they use.",
  ),
  v(
    "smart_home_tech",
    "ozaw9QhxkQU",
    "How to Install a Ductless Mini-Split Air Conditioner",
    "Efficient heating and cooling for rooms without ductwork: placing and mounting a mini-split system.",
  ),

  v("decor", "zXoi-uyDeX0", "How to Create a Dutch Door", "Turning an ordinary door into a charming split Dutch door."),
  v("decor", "DPGxCageub8", "How to Patch a Chipped Wood Floor", "Making a chip or gouge in a wood floor disappear with a matched patch."),
  v(
    "decor",
    "u6_TNkcGL5I",
    "How to Repair a Loose Newel Post",
    "Tightening the post at the foot of the stairs so the railing feels solid again.",
  ),
  v(
    "decor",
    "OvUuoY4veRA",
    "How to Replace a Kitchen Sink and Faucet",
    "Freshening up a kitchen with a new sink and faucet, from disconnecting the old one to sealing the new.",
  ),
  v(
    "decor",
    "8xRSCgwQV00",
    "How to Move a Box Spring Up a Narrow Staircase",
    "Getting a full-size box spring up a tight old staircase without damaging the walls.",
  ),
  v(
    "decor",
    "4ysD3jN5C7Y",
    "How to Build a Bluestone Walkway",
    "Laying out, excavating and setting a natural-stone path that drains well.",
  ),
];

/** Videos per category in the seeded catalogue, as the spec gives them. */
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
