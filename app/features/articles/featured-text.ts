/** The home block's message when its articles could not be loaded (spec: public-side section 8). Apart, so the block's frame carries it without the rules of featured.ts. */
export const FEATURED_LOAD_FAILED = "Failed to load articles";
