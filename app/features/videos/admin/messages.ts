/** The admin video messages, worded like the feed messages (admin-side spec, section 8). */
export const VIDEO_ADMIN_MESSAGES = {
  loadFailed: (reason: string) => `Failed to load videos: ${reason}`,
  addFailed: (reason: string) => `Failed to add video: ${reason}`,
  updateFailed: (reason: string) => `Failed to update video: ${reason}`,
  deleteFailed: (reason: string) => `Failed to delete video: ${reason}`,
  orderFailed: (reason: string) => `Failed to change the order: ${reason}`,
  added: "Video added successfully!",
  updated: "Video updated successfully!",
  deleted: "Video deleted successfully!",
  ordered: "Order saved.",
  confirmDelete: "Are you sure you want to delete this video?",
} as const;
