/**
 * The part of the configuration the browser may see (`publicConfig` in config.server.ts
 * builds it), and what every page's root loader gives the shared UI. Browser-safe: shared
 * components read these types here, never from the root route.
 */
export interface PublicConfig {
  orgName: string;
  phone: string;
  email: string;
  address: string;
  paymentPortalUrl: string;
  publicUrl: string | null;
  /** Dues paid online (issue 40): a signed-in member's Make a Payment opens their plan's payment page. */
  onlinePayments: boolean;
  /** TIME_ZONE: every time staff read is written in it, named (issue 48), and the footer's year. */
  timeZone: string;
}

/** What shared components read of the root route's data (app/root.tsx's loader returns at least this). */
export interface RootShellData {
  /** The signed-in user, or null for a visitor. */
  user: { id: number } | null;
  config: PublicConfig;
}
