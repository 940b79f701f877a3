/** Server-side pages of the admin lists (members, staff, audit log, submissions). */

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export interface Pagination {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}
