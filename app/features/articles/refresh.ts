/** Knowledge center Refresh messages (spec: public-side section 8). */
export const REFRESH_FAILED = "Failed to refresh RSS feeds. Please try again.";
export const LOAD_FAILED = "Failed to load articles. Please try again.";

export function refreshSuccessMessage(newArticles: number): string {
  return newArticles > 0
    ? `Successfully refreshed! Added ${newArticles} new articles.`
    : "RSS feeds refreshed successfully. No new articles found.";
}
