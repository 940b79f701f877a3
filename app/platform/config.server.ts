import path from "node:path";
import { z } from "~/platform/zod";
import type { PublicConfig } from "~/platform/public-config";

export type { PublicConfig } from "~/platform/public-config";

const bool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/** An https address, or nothing when unset or blank. */
const httpsUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(
    z
      .url()
      .refine((v) => v.startsWith("https://"), "must be an https:// address")
      .optional(),
  );

const envSchema = z.object({
  NODE_ENV: z.string().default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalUrl,
  /** Key for member birthdate digests. When unset, a key file is generated in DATA_DIR. */
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  ADMIN_USERNAME: z.string().trim().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(12, "ADMIN_PASSWORD must be at least 12 characters").optional(),
  PUBLIC_URL: optionalUrl,
  /** Express "trust proxy" setting: number of hops, or true/false. */
  TRUST_PROXY: z.string().default("false"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ORG_NAME: z.string().default("American Homeowners Association"),
  /** The association's time zone: the calendar day coverage, dues and reminders are reckoned in. */
  TIME_ZONE: z
    .string()
    .default("America/New_York")
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "TIME_ZONE must be an IANA time zone like America/New_York"),
  CONTACT_PHONE: z.string().default("(800) 555-0142"),
  CONTACT_EMAIL: z.email().default("info@aha-homeowners.org"),
  POSTAL_ADDRESS: z.string().default("1100 Summer Street, Suite 300, Stamford, CT 06905"),
  PAYMENT_PORTAL_URL: z.url().default("https://pay.aha-homeowners.org/"),
  SMTP_URL: optionalUrl,
  NOTIFY_EMAIL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.email().optional()),
  MAIL_FROM: z.string().optional(),
  /** Membership reminder e-mails (first payment, due soon, past due, lapsed); they need SMTP_URL too. */
  REMINDERS_ENABLED: bool.default(true),
  /** SMTP connections the reminders keep open at most (a pool). */
  REMINDER_SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(20).default(5),
  /** Reminder e-mails started per second at most: 30 sends 50,000 in under half an hour. */
  REMINDER_RATE_PER_SECOND: z.coerce.number().min(1).max(1000).default(30),
  /** How often an instance checks for reminders to plan and send. */
  REMINDER_CHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  INGEST_TOKEN: z.string().min(16, "INGEST_TOKEN must be at least 16 characters").optional(),
  RSS_INGEST_INTERVAL_MINUTES: z.coerce.number().min(0).default(60),
  RSS_ALLOW_PRIVATE_HOSTS: bool.default(false),
  /** Outside case lookup endpoint, called by the server with ?case=<digits> when a case is not in the cases table. */
  CASE_LOOKUP_URL: optionalUrl,
  CASE_LOOKUP_ALLOW_PRIVATE_HOSTS: bool.default(false),
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are closed. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(10),
  /**
   * On SIGTERM/SIGINT, how long the server goes on answering (with /readyz saying 503) before
   * it stops taking connections: time for the load balancer to see it draining.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  /** GET /metrics on the site's own port, to a caller sending `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  /** GET /metrics on this port of the loopback address (127.0.0.1) alone, without a token. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Certificate numbers of members made from applications: letters, digits and dashes around
   * one run of zeros in braces, the number's width ("AHA{0000000}" gives AHA0000001).
   */
  /**
   * Dues paid online through Stripe (issue 40), off unless set: the webhook endpoint's signing
   * secret (whsec_...), and the Payment Links members pay their plan on. All or none (below).
   */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9]+$/, "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret, a whsec_ value")
        .optional(),
    ),
  /** The Payment Link of the monthly plan ($19.95 a month, a subscription). */
  STRIPE_LINK_MONTHLY: httpsUrl,
  /** The Payment Link of the annual plan ($99.00 a year, a subscription or one-time). */
  STRIPE_LINK_ANNUAL: httpsUrl,
  /** Where members manage autopay (Stripe's customer portal login link); optional. */
  STRIPE_CUSTOMER_PORTAL_URL: httpsUrl,
  CERTIFICATE_FORMAT: z
    .string()
    .regex(/^[A-Z0-9-]{0,20}\{0{3,12}\}[A-Z0-9-]{0,20}$/, "CERTIFICATE_FORMAT must look like AHA{0000000}")
    .default("AHA{0000000}"),
});

export type Config = ReturnType<typeof loadConfig>;

/** Reads and checks the environment once; a bad value throws with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const stripe = stripeConfig(e);
  const trustProxy = e.TRUST_PROXY === "true" ? true : e.TRUST_PROXY === "false" ? false : Number(e.TRUST_PROXY) || e.TRUST_PROXY;
  return {
    ...e,
    DATA_DIR: path.resolve(e.DATA_DIR),
    trustProxy,
    isProduction: e.NODE_ENV === "production",
    /** Dues paid online (issue 40); null when off. */
    stripe,
  };
}

export interface StripeConfig {
  webhookSecret: string;
  links: { monthly: string; annual: string };
  customerPortalUrl: string | null;
}

export const STRIPE_CONFIG_MESSAGES = {
  half: "Stripe is half configured: set STRIPE_WEBHOOK_SECRET, STRIPE_LINK_MONTHLY and STRIPE_LINK_ANNUAL together (STRIPE_CUSTOMER_PORTAL_URL is optional), or none of them",
} as const;

/** Online payments are on with the secret and both plans' links; any of them alone is refused. */
function stripeConfig(e: {
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_LINK_MONTHLY?: string;
  STRIPE_LINK_ANNUAL?: string;
  STRIPE_CUSTOMER_PORTAL_URL?: string;
}): StripeConfig | null {
  const { STRIPE_WEBHOOK_SECRET: secret, STRIPE_LINK_MONTHLY: monthly, STRIPE_LINK_ANNUAL: annual, STRIPE_CUSTOMER_PORTAL_URL: portal } = e;
  if (!secret && !monthly && !annual && !portal) return null;
  if (!secret || !monthly || !annual) {
    const missing = [!secret && "STRIPE_WEBHOOK_SECRET", !monthly && "STRIPE_LINK_MONTHLY", !annual && "STRIPE_LINK_ANNUAL"].filter(
      Boolean,
    );
    throw new ConfigError(`Invalid configuration:\n  ${STRIPE_CONFIG_MESSAGES.half}; missing: ${missing.join(", ")}`);
  }
  return { webhookSecret: secret, links: { monthly, annual }, customerPortalUrl: portal ?? null };
}

export class ConfigError extends Error {}

/** The part of the configuration the browser may see. */
export function publicConfig(config: Config): PublicConfig {
  return {
    orgName: config.ORG_NAME,
    phone: config.CONTACT_PHONE,
    email: config.CONTACT_EMAIL,
    address: config.POSTAL_ADDRESS,
    paymentPortalUrl: config.PAYMENT_PORTAL_URL,
    publicUrl: config.PUBLIC_URL ?? null,
    onlinePayments: config.stripe !== null,
    timeZone: config.TIME_ZONE,
  };
}
