import { sql } from "kysely";
import type { AppMigration } from "./types";

/**
 * The default video catalogue put each video where a member would look for it (issue: repair
 * videos under Insurance, a kitchen sink under Decor). A site that seeded the first catalogue
 * gets the same fix: each misplaced default video that nobody has edited since it was seeded
 * is taken out of its category, and each new default video is added at the end of its
 * category unless that category already holds it. Edited or added videos are left alone; a
 * site that has not seeded yet seeds the new catalogue on its first start.
 */
const SEEDED_FLAG = "default_videos_seeded";

/** [category, youtube_id, title as seeded] of the first catalogue's misplaced entries. */
const MISPLACED: ReadonlyArray<readonly [string, string, string]> = [
  ["home_security", "JV8nBPWWZD0", "How to Install a Sliding Glass Door"],
  ["home_security", "vTwyInX4KyM", "Most Smart Devices Are Incredibly Dumb"],
  ["home_security", "LkZe8A5h7Os", "How to Cut Down a Dangerous Tree"],
  ["greening_tips", "C39FWbhqiSA", "How to Install a Channel Drain"],
  ["greening_tips", "Gw7BSrWH1Ck", "How to Rebuild a Hose Spigot"],
  ["greening_tips", "sPXbqcm8GQI", "How to Replace a Rotted Fence Post"],
  ["greening_tips", "4ysD3jN5C7Y", "How to Build a Bluestone Walkway"],
  ["energy_saving_tips", "VHESd9jyOzE", "How to Replace a Skylight"],
  ["energy_saving_tips", "-CnNijEGA6M", "How to Install a Propane-Fueled Stove"],
  ["insurance", "23amU7EWy7g", "How to Repair a Cracked Floor Joist"],
  ["insurance", "4DYzcyQaNuc", "How to Repair a Damaged Carrying Beam"],
  ["insurance", "s6naaDBrZSc", "How to Repair a Rotted Porch Post"],
  ["insurance", "nRR27lR5l4E", "How to Replace a Broken Front Porch Board"],
  ["insurance", "LkZe8A5h7Os", "How to Cut Down a Dangerous Tree"],
  ["insurance", "NfR2KIdndPo", "How to Replace a Stair Railing"],
  ["insurance", "Z2eLdeTl35c", "How to Install an Alternative to Gutters"],
  ["insurance", "C39FWbhqiSA", "How to Install a Channel Drain"],
  ["smart_home_tech", "N3Em64OBGqI", "Future House: Living Off the Grid Comfortably"],
  ["smart_home_tech", "Uy0SEG36bEM", "Future House: Net Zero Neighborhood"],
  ["smart_home_tech", "ozaw9QhxkQU", "How to Install a Ductless Mini-Split Air Conditioner"],
  ["decor", "DPGxCageub8", "How to Patch a Chipped Wood Floor"],
  ["decor", "u6_TNkcGL5I", "How to Repair a Loose Newel Post"],
  ["decor", "OvUuoY4veRA", "How to Replace a Kitchen Sink and Faucet"],
  ["decor", "8xRSCgwQV00", "How to Move a Box Spring Up a Narrow Staircase"],
  ["decor", "4ysD3jN5C7Y", "How to Build a Bluestone Walkway"],
];

/** [category, youtube_id, title, description] of the entries the new catalogue adds. */
const ADDED: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    "home_security",
    "FArTQnaSS_Q",
    "How to Keep Your Home Safe and Protected",
    "Burglar alarms, temperature and water sensors that warn you while you are away, and why a vacation post can wait until you are back.",
  ],
  [
    "home_security",
    "r8moaWCzNNo",
    "How Can You Keep Your Home Safe During Your Holiday Vacation?",
    "Five tips before a trip: a Wi-Fi doorbell, exterior and motion lighting, a trusted neighbor, and held mail and deliveries.",
  ],
  [
    "home_security",
    "EP4jGBa3A7A",
    "5 Tips for Keeping Your Home Safe While on Vacation",
    "Video doorbells, motion-activated lights, neighbors who know you are gone, and other easy steps against break-ins.",
  ],
  [
    "greening_tips",
    "N3Em64OBGqI",
    "Future House: Living Off the Grid Comfortably",
    "A home that makes its own power and water and still feels like an ordinary house.",
  ],
  [
    "greening_tips",
    "YbnxRjEdmFs",
    "4 Tips for an Energy-Efficient Home",
    "Heavier window treatments, cold-water laundry, LED bulbs and more house plants: small changes that cut energy use and emissions.",
  ],
  [
    "greening_tips",
    "UlEPwJmMgJM",
    "Should You Add a Solar Panel to Your Home?",
    "When rooftop solar pays off for a homeowner, and what it means when the time comes to sell.",
  ],
  [
    "greening_tips",
    "TwgnoFGd5f4",
    "Do Solar Panels Help or Hinder a Listing's Potential?",
    "The environmental and energy benefits of solar panels, and what a lease or lien on them means for a sale.",
  ],
  [
    "energy_saving_tips",
    "fPFsp7cP7Bs",
    "The Best Ways to Make Your Home More Energy Efficient",
    "Sealing ducts and vents, replacing single-pane windows and tired insulation, and when an energy audit is worth it.",
  ],
  [
    "energy_saving_tips",
    "YbnxRjEdmFs",
    "4 Tips for an Energy-Efficient Home",
    "Heavier window treatments, cold-water laundry, LED bulbs and more house plants: small changes that cut energy use and emissions.",
  ],
  [
    "insurance",
    "EzBn4pJBi9I",
    "What Your Home Insurance Should Cover",
    "Three things to check in a homeowner's policy: enough dwelling coverage to rebuild, loss of use for the months it takes, and your contents.",
  ],
  [
    "insurance",
    "qQPDr_XuMiM",
    "How to Influence a Lower Homeowner's Insurance Premium",
    "What sets a homeowner's premium and what you control: claims, credit, distance to the fire station and the deductible.",
  ],
  [
    "insurance",
    "zL3_Q4AXlms",
    "What Insurance Do I Need?",
    "Title insurance and homeowners insurance when you buy a home, and extra cover such as flood, earthquake or water backup.",
  ],
  [
    "insurance",
    "gE4KpKeokNA",
    "How Can Insurance Prepare You for Disasters?",
    "An insurance agent on annual policy reviews and insuring a home to its current replacement value before disaster strikes.",
  ],
  [
    "insurance",
    "6ip4YxVYvKI",
    "Things to Know About Flood Insurance",
    "Flood zones, when a lender requires flood insurance, and why homes outside a flood zone should ask about water damage too.",
  ],
  [
    "insurance",
    "pmCBnFg4A_w",
    "Tips for Anyone That May Be in or Near Flood Areas",
    "Flood insurance and FEMA's repetitive loss list: what it means for a homeowner and for a buyer looking at a house.",
  ],
  [
    "insurance",
    "R3R42lJASNg",
    "You Could Be in Trouble Without Title Insurance",
    "What owner's title insurance is, how it differs from the lender's policy, and why it is a one-time payment worth making.",
  ],
  [
    "insurance",
    "berd7n2mVvU",
    "Everything You Need to Know About Home Warranties",
    "What a home warranty covers, how it differs from insurance, and whether to include one when buying or selling.",
  ],
  [
    "smart_home_tech",
    "uieM18rZdHY",
    "3 Smart Home Devices to Make Your Life Easier",
    "A smart lock you open from anywhere, a smart thermostat that saves on energy bills, and cameras to keep an eye on the house.",
  ],
  [
    "smart_home_tech",
    "kDFf1zfHndc",
    "4 Tech Features That Improve a Home's Value",
    "Smart thermostats, surveillance cameras and a doorbell with a webcam, and smart kitchen equipment that buyers look for.",
  ],
  [
    "smart_home_tech",
    "3b8PAvQfQoY",
    "Use Technology to Draw Buyers to Your Home",
    "Smart thermostats, discreet home surveillance and touchless kitchen fixtures, and why buyers value them.",
  ],
  [
    "decor",
    "e-xaCbdDKsU",
    "Design Tips for Home Sellers",
    "A style director's quick ways to freshen up the dining room, kitchen, living room and bedroom with current decor.",
  ],
  [
    "decor",
    "BZVTNmUbmQc",
    "Looking at the Latest Home Color Trends With an Expert",
    "The quickest way to update a home is color: black and charcoal, denim, greens that bring the outdoors in, and sand tones.",
  ],
  [
    "decor",
    "uny2hZdsKPg",
    "How to Stage Your Home for Success",
    "Curb appeal, an inviting ambience, furniture that opens up floor space, and making the most of a quirky corner.",
  ],
  [
    "decor",
    "dVs3fLuzG4I",
    "How to Properly Stage Your Home",
    "Staging while you still live there: fewer personal items, each room back to its purpose, and a storage unit for the rest.",
  ],
  [
    "decor",
    "bLJxzA-rWhM",
    "5 Ways to Tidy Your Home",
    "Curb appeal, clutter-free counters, a deep clean and furniture arranged for open, easy-to-walk rooms.",
  ],
];

export const m0011_video_catalogue_placements: AppMigration = {
  async up(db) {
    const seeded = await db.selectFrom("app_flags").select("key").where("key", "=", SEEDED_FLAG).executeTakeFirst();
    if (!seeded) return;
    for (const [category, youtubeId, title] of MISPLACED) {
      await db
        .deleteFrom("videos")
        .where("category", "=", category)
        .where("youtube_id", "=", youtubeId)
        .where("title", "=", title)
        .where(sql<boolean>`updated_at = created_at`)
        .execute();
    }
    const now = new Date().toISOString();
    for (const [category, youtubeId, title, description] of ADDED) {
      const last = await db
        .selectFrom("videos")
        .select((eb) => eb.fn.max("sort_order").as("n"))
        .where("category", "=", category)
        .executeTakeFirst();
      const next = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
      await db
        .insertInto("videos")
        .values({
          category,
          title,
          description,
          youtube_id: youtubeId,
          duration: null,
          sort_order: next,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["category", "youtube_id"]).doNothing())
        .execute();
    }
  },
};
