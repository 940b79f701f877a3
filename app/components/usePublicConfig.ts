import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import type { PublicConfig } from "~/platform/config.server";

/** The association's own details, for the rare page drawn without the root loader's configuration. */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  orgName: "American Homeowners Association",
  phone: "(800) 555-0142",
  email: "info@aha-homeowners.org",
  address: "1100 Summer Street, Suite 300, Stamford, CT 06905",
  paymentPortalUrl: "https://pay.aha-homeowners.org/",
  publicUrl: null,
};

/** The browser-safe configuration (organisation name, phone, e-mail...) from the root loader. */
export function usePublicConfig(): PublicConfig {
  return useRouteLoaderData<typeof rootLoader>("root")?.config ?? DEFAULT_PUBLIC_CONFIG;
}

/** A phone number as a tel: link target. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
