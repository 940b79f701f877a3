import { useRouteLoaderData } from "react-router";
import type { PublicConfig, RootShellData } from "~/platform/public-config";

/** The association's own details, for the rare page drawn without the root loader's configuration. */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  orgName: "American Homeowners Association",
  phone: "(800) 555-0142",
  email: "info@aha-homeowners.org",
  address: "1100 Summer Street, Suite 300, Stamford, CT 06905",
  paymentPortalUrl: "https://pay.aha-homeowners.org/",
  publicUrl: null,
  onlinePayments: false,
  timeZone: "America/New_York",
};

/** The browser-safe configuration (organisation name, phone, e-mail...) from the root loader. */
export function usePublicConfig(): PublicConfig {
  return useRootShellData()?.config ?? DEFAULT_PUBLIC_CONFIG;
}

/** The root route's data as shared components see it (undefined on a page drawn without it). */
export function useRootShellData(): RootShellData | undefined {
  return useRouteLoaderData("root") as RootShellData | undefined;
}

/** A phone number as a tel: link target. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
