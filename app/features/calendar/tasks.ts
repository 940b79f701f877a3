/**
 * The built-in home maintenance calendar (spec: public-side sections 2, 3, 9): 48 seasonal
 * tasks, four a month, for a house in a temperate climate with cold winters and warm summers.
 * `day` is the suggested day of the month; several tasks may share a day (the month grid shows
 * at most two a day and '+N more').
 */
import { isoDate } from "~/platform/dates";

export const MAINTENANCE_CATEGORIES = ["HVAC", "Safety", "Exterior", "Appliances", "Plumbing", "Yard", "Prep", "Interior"] as const;
export type MaintenanceCategory = (typeof MAINTENANCE_CATEGORIES)[number];

export interface MaintenanceTaskDef {
  id: string;
  title: string;
  tip: string;
  /** 1-12 */
  month: number;
  /** Suggested day of the month (1-28, valid in every year). */
  day: number;
  category: MaintenanceCategory;
}

/** A task placed in a given year. */
export interface MaintenanceTask extends MaintenanceTaskDef {
  /** ISO date (YYYY-MM-DD). */
  date: string;
}

export const MAINTENANCE_TASKS: ReadonlyArray<MaintenanceTaskDef> = [
  // January: deep winter, mostly indoors.
  {
    id: "jan-furnace-filter",
    month: 1,
    day: 4,
    category: "HVAC",
    title: "Replace the furnace filter",
    tip: "A clogged filter makes the blower work harder and raises heating bills. Write the filter size on the furnace cabinet so you buy the right one next time.",
  },
  {
    id: "jan-smoke-co-test",
    month: 1,
    day: 4,
    category: "Safety",
    title: "Test smoke and carbon monoxide alarms",
    tip: "Press the test button on every alarm and replace any unit older than ten years (the date is printed on the back).",
  },
  {
    id: "jan-frozen-pipes",
    month: 1,
    day: 4,
    category: "Plumbing",
    title: "Check exposed pipes for freezing risk",
    tip: "Wrap pipes in unheated crawl spaces and garages with foam sleeves, and open sink cabinet doors on outside walls during cold snaps.",
  },
  {
    id: "jan-ice-dams",
    month: 1,
    day: 18,
    category: "Exterior",
    title: "Watch the roof edge for ice dams",
    tip: "Rake snow off the lower three feet of the roof from the ground. Icicles along the gutters often mean warm air is leaking into the attic.",
  },

  // February
  {
    id: "feb-sump-pump",
    month: 2,
    day: 8,
    category: "Plumbing",
    title: "Test the sump pump before the thaw",
    tip: "Pour a bucket of water into the pit: the float should rise and the pump start within seconds. Clear the outlet pipe of ice or debris.",
  },
  {
    id: "feb-range-hood",
    month: 2,
    day: 8,
    category: "Appliances",
    title: "Degrease the range hood filter",
    tip: "Soak metal mesh filters in hot water with dish soap and a spoonful of baking soda for 15 minutes, then rinse and let them dry.",
  },
  {
    id: "feb-caulk-tubs",
    month: 2,
    day: 15,
    category: "Interior",
    title: "Inspect caulk around tubs and showers",
    tip: "Cracked or moldy caulk lets water into the wall. Cut it out, clean with rubbing alcohol and lay a fresh bead of silicone caulk.",
  },
  {
    id: "feb-fire-extinguisher",
    month: 2,
    day: 22,
    category: "Safety",
    title: "Check fire extinguishers",
    tip: "The pressure gauge needle should sit in the green zone. Keep one extinguisher in the kitchen, one in the garage and one on each floor.",
  },

  // March: early spring.
  {
    id: "mar-gutters",
    month: 3,
    day: 7,
    category: "Exterior",
    title: "Clean gutters and downspouts",
    tip: "Flush downspouts with a garden hose and make sure they discharge at least four feet from the foundation.",
  },
  {
    id: "mar-roof-check",
    month: 3,
    day: 7,
    category: "Exterior",
    title: "Look over the roof after winter",
    tip: "From the ground with binoculars, look for missing, curled or cracked shingles and loose flashing around chimneys and vents.",
  },
  {
    id: "mar-ac-service",
    month: 3,
    day: 7,
    category: "HVAC",
    title: "Book the air conditioner tune-up",
    tip: "Schedule the service before the first hot week, when technicians are booked solid. Clear leaves and branches two feet around the outdoor unit.",
  },
  {
    id: "mar-dryer-vent",
    month: 3,
    day: 21,
    category: "Appliances",
    title: "Clean the dryer vent duct",
    tip: "Lint in the duct is a leading cause of house fires. Disconnect the duct and brush it out, and check that the outside flap opens freely.",
  },

  // April
  {
    id: "apr-outdoor-faucets",
    month: 4,
    day: 5,
    category: "Plumbing",
    title: "Turn on and check outdoor faucets",
    tip: "Open the inside shut-off valve, then run each spigot. A leak inside the wall after the first use often means the pipe split over the winter.",
  },
  {
    id: "apr-lawn-mower",
    month: 4,
    day: 12,
    category: "Yard",
    title: "Service the lawn mower",
    tip: "Sharpen or replace the blade, change the oil and put in fresh fuel. A sharp blade cuts cleanly and keeps the lawn healthier.",
  },
  {
    id: "apr-window-screens",
    month: 4,
    day: 19,
    category: "Exterior",
    title: "Wash windows and repair screens",
    tip: "Patch small holes in screens with a screen repair kit before insects arrive, and clear the weep holes at the bottom of window frames.",
  },
  {
    id: "apr-grading",
    month: 4,
    day: 26,
    category: "Yard",
    title: "Check the soil slopes away from the house",
    tip: "The ground should drop about six inches over the first ten feet. Fill low spots next to the foundation with soil, not mulch.",
  },

  // May
  {
    id: "may-deck",
    month: 5,
    day: 3,
    category: "Exterior",
    title: "Inspect and clean the deck",
    tip: "Probe boards and posts with a screwdriver: soft wood means rot. Sprinkle water on the boards; if it soaks in, it is time to reseal.",
  },
  {
    id: "may-ac-filter",
    month: 5,
    day: 3,
    category: "HVAC",
    title: "Change the air filter for cooling season",
    tip: "Switch to a fresh filter as the air conditioner takes over, and make sure the condensate drain line runs clear.",
  },
  {
    id: "may-irrigation",
    month: 5,
    day: 3,
    category: "Yard",
    title: "Start up and adjust the sprinklers",
    tip: "Run each zone and aim heads away from the house, sidewalks and the street. Water early in the morning to lose less to evaporation.",
  },
  {
    id: "may-exterior-paint",
    month: 5,
    day: 24,
    category: "Exterior",
    title: "Touch up peeling exterior paint",
    tip: "Scrape, prime and paint bare spots on trim and siding before summer: exposed wood soaks up rain and starts to rot.",
  },

  // June: early summer.
  {
    id: "jun-ceiling-fans",
    month: 6,
    day: 7,
    category: "Interior",
    title: "Set ceiling fans to summer mode",
    tip: "Blades should turn counterclockwise (seen from below) to push cool air down. Dust the blades while you are up there.",
  },
  {
    id: "jun-fridge-coils",
    month: 6,
    day: 14,
    category: "Appliances",
    title: "Vacuum the refrigerator coils",
    tip: "Dusty condenser coils make the fridge run longer. Unplug it, pull it out and clean the coils with a brush attachment.",
  },
  {
    id: "jun-pests",
    month: 6,
    day: 21,
    category: "Exterior",
    title: "Look for signs of pests and termites",
    tip: "Check the foundation for mud tubes and seal gaps around pipes and wires where they enter the house.",
  },
  {
    id: "jun-water-heater",
    month: 6,
    day: 28,
    category: "Plumbing",
    title: "Flush the water heater",
    tip: "Drain a few gallons from the tank valve into a bucket until the water runs clear; sediment shortens the heater's life.",
  },

  // July
  {
    id: "jul-dryer-lint",
    month: 7,
    day: 5,
    category: "Appliances",
    title: "Deep-clean the dryer lint trap",
    tip: "Wash the lint screen with warm soapy water: dryer sheets leave a film that blocks airflow even when the screen looks clean.",
  },
  {
    id: "jul-trees",
    month: 7,
    day: 5,
    category: "Yard",
    title: "Trim trees and shrubs away from the house",
    tip: "Keep branches at least three feet from the roof and siding so they cannot scrape shingles or carry moisture and pests.",
  },
  {
    id: "jul-ac-condensate",
    month: 7,
    day: 5,
    category: "HVAC",
    title: "Clear the air conditioner condensate line",
    tip: "Pour a cup of white vinegar into the drain line access to stop algae from clogging it and backing water into the house.",
  },
  {
    id: "jul-grout",
    month: 7,
    day: 19,
    category: "Interior",
    title: "Clean and seal tile grout",
    tip: "Scrub grout with a baking soda paste, let it dry for a day, then apply a penetrating sealer to keep out stains and mildew.",
  },

  // August: late summer.
  {
    id: "aug-driveway",
    month: 8,
    day: 2,
    category: "Exterior",
    title: "Seal cracks in the driveway and walks",
    tip: "Fill cracks wider than a quarter inch on a dry, warm day so water cannot freeze in them and widen them this winter.",
  },
  {
    id: "aug-washer-hoses",
    month: 8,
    day: 9,
    category: "Appliances",
    title: "Check the washing machine hoses",
    tip: "Replace rubber hoses that are bulging, cracked or over five years old with braided stainless steel ones.",
  },
  {
    id: "aug-emergency-kit",
    month: 8,
    day: 16,
    category: "Prep",
    title: "Restock the emergency kit",
    tip: "Keep water for three days, a flashlight, batteries, a first-aid kit, medications and copies of insurance papers in one bag.",
  },
  {
    id: "aug-toilets",
    month: 8,
    day: 23,
    category: "Plumbing",
    title: "Check toilets for silent leaks",
    tip: "Put a few drops of food coloring in the tank. If color shows in the bowl within 15 minutes without flushing, replace the flapper.",
  },

  // September: early fall.
  {
    id: "sep-furnace-service",
    month: 9,
    day: 6,
    category: "HVAC",
    title: "Schedule the furnace inspection",
    tip: "Have the heating system checked before the first cold night, including the heat exchanger and the carbon monoxide venting.",
  },
  {
    id: "sep-weatherstrip",
    month: 9,
    day: 6,
    category: "Interior",
    title: "Replace worn weatherstripping",
    tip: "Close a door on a sheet of paper: if it slides out easily, the seal is worn. Doing this can cut heating costs noticeably.",
  },
  {
    id: "sep-chimney",
    month: 9,
    day: 6,
    category: "Safety",
    title: "Have the chimney swept and inspected",
    tip: "Creosote buildup causes chimney fires. Book a certified sweep before you light the first fire of the season.",
  },
  {
    id: "sep-fall-lawn",
    month: 9,
    day: 20,
    category: "Yard",
    title: "Aerate and overseed the lawn",
    tip: "Early fall is the best time for cool-season grasses: warm soil and cool air help new seed take root before winter.",
  },

  // October
  {
    id: "oct-hoses-off",
    month: 10,
    day: 4,
    category: "Plumbing",
    title: "Shut off and drain outdoor faucets",
    tip: "Disconnect garden hoses, close the inside shut-off valve and open the spigot to drain it so it cannot freeze and split.",
  },
  {
    id: "oct-gutters-fall",
    month: 10,
    day: 18,
    category: "Exterior",
    title: "Clear gutters after the leaves fall",
    tip: "Wait until most trees are bare, then clean gutters again so melting snow can drain instead of backing up under the shingles.",
  },
  {
    id: "oct-winterize-mower",
    month: 10,
    day: 25,
    category: "Yard",
    title: "Winterize the lawn equipment",
    tip: "Run the mower dry or add fuel stabilizer, then clean the deck. Drain and store hoses out of the sun.",
  },
  {
    id: "oct-fire-escape",
    month: 10,
    day: 11,
    category: "Safety",
    title: "Practice the family fire escape plan",
    tip: "Agree on two ways out of every room and a meeting spot outside. Check that windows open easily and escape ladders are in place.",
  },

  // November
  {
    id: "nov-reverse-fans",
    month: 11,
    day: 1,
    category: "Interior",
    title: "Set ceiling fans to winter mode",
    tip: "Switch blades to turn clockwise at low speed to push warm air down from the ceiling without making a draft.",
  },
  {
    id: "nov-winter-supplies",
    month: 11,
    day: 1,
    category: "Prep",
    title: "Stock up on winter supplies",
    tip: "Buy ice melt, a snow shovel and spare furnace filters before the first storm empties the store shelves.",
  },
  {
    id: "nov-smoke-batteries",
    month: 11,
    day: 1,
    category: "Safety",
    title: "Change smoke alarm batteries",
    tip: "Pick a fixed day each year, such as the end of daylight saving time, and replace batteries in every alarm at once.",
  },
  {
    id: "nov-humidifier",
    month: 11,
    day: 22,
    category: "HVAC",
    title: "Clean and start the humidifier",
    tip: "Replace the water panel or pad and keep indoor humidity between 30 and 50 percent to avoid condensation on windows.",
  },

  // December
  {
    id: "dec-holiday-lights",
    month: 12,
    day: 6,
    category: "Safety",
    title: "Check holiday lights and extension cords",
    tip: "Throw away strings with cracked sockets or frayed wires, use outdoor-rated cords outside and never run cords under rugs.",
  },
  {
    id: "dec-generator",
    month: 12,
    day: 6,
    category: "Prep",
    title: "Test the backup generator",
    tip: "Run it under load for 20 minutes, outdoors and at least 20 feet from windows and doors, and keep fresh stabilized fuel on hand.",
  },
  {
    id: "dec-attic",
    month: 12,
    day: 13,
    category: "Interior",
    title: "Check the attic for leaks and frost",
    tip: "Frost on the underside of the roof deck means warm, moist air is escaping: seal gaps around light fixtures and the attic hatch.",
  },
  {
    id: "dec-drains",
    month: 12,
    day: 20,
    category: "Plumbing",
    title: "Clear slow drains before guests arrive",
    tip: "Use a drain snake or a baking soda and vinegar flush; chemical drain cleaners can damage older pipes.",
  },
];

/** The built-in tasks placed in a year, in date order. */
export function tasksForYear(year: number, defs: ReadonlyArray<MaintenanceTaskDef> = MAINTENANCE_TASKS): MaintenanceTask[] {
  return defs
    .map((t) => ({ ...t, date: isoDate(year, t.month, t.day) }))
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}

export function tasksInMonth(tasks: ReadonlyArray<MaintenanceTask>, month: number): MaintenanceTask[] {
  return tasks.filter((t) => t.month === month);
}
