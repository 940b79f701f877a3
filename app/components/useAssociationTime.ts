import { useCallback } from "react";
import { formatZonedDateTime } from "~/platform/dates";
import { usePublicConfig } from "./usePublicConfig";

/**
 * How staff read an instant: in the association's zone (TIME_ZONE), the zone named, whatever
 * the browser's own (issue 48); null when there is none.
 */
export function useAssociationTime(): (value: string | null | undefined) => string | null {
  const { timeZone } = usePublicConfig();
  return useCallback((value) => formatZonedDateTime(value, timeZone), [timeZone]);
}
