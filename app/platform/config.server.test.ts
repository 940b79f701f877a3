import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, STRIPE_CONFIG_MESSAGES } from "./config.server";

const base = { NODE_ENV: "test", DATA_DIR: "/tmp/aha-config-test" };
const stripe = {
  STRIPE_WEBHOOK_SECRET: "whsec_test0123456789abcdef",
  STRIPE_LINK_MONTHLY: "https://buy.stripe.com/test_monthly",
  STRIPE_LINK_ANNUAL: "https://buy.stripe.com/test_annual",
};

describe("config: dues paid online (Stripe)", () => {
  it("is off with nothing configured", () => {
    expect(loadConfig(base).stripe).toBeNull();
    expect(loadConfig({ ...base, STRIPE_WEBHOOK_SECRET: "  ", STRIPE_LINK_MONTHLY: "" }).stripe).toBeNull();
  });

  it("is on with the secret and both links; the customer portal is optional", () => {
    expect(loadConfig({ ...base, ...stripe }).stripe).toEqual({
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      links: { monthly: stripe.STRIPE_LINK_MONTHLY, annual: stripe.STRIPE_LINK_ANNUAL },
      customerPortalUrl: null,
    });
    const portal = "https://billing.stripe.com/p/login/test_123";
    expect(loadConfig({ ...base, ...stripe, STRIPE_CUSTOMER_PORTAL_URL: portal }).stripe?.customerPortalUrl).toBe(portal);
  });

  it.each([
    [
      "a link without the secret",
      { STRIPE_LINK_MONTHLY: stripe.STRIPE_LINK_MONTHLY, STRIPE_LINK_ANNUAL: stripe.STRIPE_LINK_ANNUAL },
      "STRIPE_WEBHOOK_SECRET",
    ],
    ["the secret without the links", { STRIPE_WEBHOOK_SECRET: stripe.STRIPE_WEBHOOK_SECRET }, "STRIPE_LINK_MONTHLY, STRIPE_LINK_ANNUAL"],
    ["one link missing", { ...stripe, STRIPE_LINK_ANNUAL: "" }, "STRIPE_LINK_ANNUAL"],
    ["the customer portal alone", { STRIPE_CUSTOMER_PORTAL_URL: "https://billing.stripe.com/p/login/x" }, "STRIPE_WEBHOOK_SECRET"],
  ])("refuses a half configuration: %s", (_name, env, missing) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(`${STRIPE_CONFIG_MESSAGES.half}; missing: ${missing}`);
  });

  it("refuses a secret that is not a whsec_ value, and links that are not https", () => {
    expect(() => loadConfig({ ...base, ...stripe, STRIPE_WEBHOOK_SECRET: "sk_live_123" })).toThrow(
      "STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret, a whsec_ value",
    );
    expect(() => loadConfig({ ...base, ...stripe, STRIPE_LINK_MONTHLY: "http://buy.stripe.com/x" })).toThrow(
      "STRIPE_LINK_MONTHLY: must be an https:// address",
    );
    expect(() => loadConfig({ ...base, ...stripe, STRIPE_LINK_ANNUAL: "not a link" })).toThrow("STRIPE_LINK_ANNUAL");
  });
});
