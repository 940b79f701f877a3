/**
 * Stripe events as its API reference shows them (the event object, and the Checkout Session,
 * Invoice, Charge and Subscription objects of API version 2026-10-28, the one the `stripe`
 * package is pinned to), with the fields the site reads set per test and the rest as the
 * reference's examples give them. Signed with the library's own test-header helper.
 */
import crypto from "node:crypto";
import Stripe from "stripe";

export const TEST_WEBHOOK_SECRET = "whsec_test5f1c2a9e0b7d4c3a8f6e1d2c9b0a7e4f";
export const STRIPE_TEST_ENV = {
  STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  STRIPE_LINK_MONTHLY: "https://buy.stripe.com/test_monthly00",
  STRIPE_LINK_ANNUAL: "https://buy.stripe.com/test_annual00",
  STRIPE_CUSTOMER_PORTAL_URL: "https://billing.stripe.com/p/login/test_portal00",
};

const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export function event(type: string, object: Record<string, unknown>, opts: { created?: number; id?: string } = {}) {
  return {
    id: opts.id ?? id("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: opts.created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The signed body and header of an event, as the provider posts it. */
export function signed(body: unknown, opts: { secret?: string; timestamp?: number } = {}) {
  return signedText(JSON.stringify(body), opts);
}

/** Any text signed as the provider signs a body (a body that is not JSON, for one). */
export function signedText(payload: string, opts: { secret?: string; timestamp?: number } = {}) {
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? TEST_WEBHOOK_SECRET,
    timestamp: opts.timestamp,
  });
  return { payload, header };
}

export function checkoutSession(o: {
  clientReference: string | null;
  amount: number;
  currency?: string;
  mode?: "payment" | "subscription";
  paymentIntent?: string | null;
  subscription?: string | null;
  invoice?: string | null;
  customer?: string;
  email?: string;
  paymentStatus?: string;
}) {
  const mode = o.mode ?? "payment";
  return {
    id: id("cs_test"),
    object: "checkout.session",
    adaptive_pricing: { enabled: true },
    after_expiration: null,
    allow_promotion_codes: false,
    amount_subtotal: o.amount,
    amount_total: o.amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: "auto",
    cancel_url: null,
    client_reference_id: o.clientReference,
    client_secret: null,
    consent: null,
    consent_collection: null,
    created: nowSeconds() - 60,
    currency: o.currency ?? "usd",
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: o.customer ?? id("cus"),
    customer_creation: "if_required",
    customer_details: {
      address: null,
      email: o.email ?? "member@example.com",
      name: "Pat Member",
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
    },
    customer_email: null,
    discounts: [],
    expires_at: nowSeconds() + 86_400,
    invoice: mode === "subscription" ? (o.invoice ?? id("in")) : null,
    invoice_creation: null,
    livemode: false,
    locale: "auto",
    metadata: {},
    mode,
    payment_intent: mode === "payment" ? (o.paymentIntent ?? id("pi")) : null,
    payment_link: id("plink"),
    payment_method_collection: "always",
    payment_method_types: ["card"],
    payment_status: o.paymentStatus ?? "paid",
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "complete",
    submit_type: null,
    subscription: mode === "subscription" ? (o.subscription ?? id("sub")) : null,
    success_url: "https://aha.example/account?paid=1",
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: null,
  };
}

export function invoice(o: {
  amount: number;
  subscription: string;
  id?: string;
  currency?: string;
  paymentIntent?: string;
  billingReason?: string;
  periodEnd?: number;
  customer?: string;
  status?: "paid" | "open";
  failure?: string;
  nextAttempt?: number | null;
}) {
  const periodStart = nowSeconds();
  const periodEnd = o.periodEnd ?? periodStart + 30 * 86_400;
  const invoiceId = o.id ?? id("in");
  const paid = (o.status ?? "paid") === "paid";
  return {
    id: invoiceId,
    object: "invoice",
    account_country: "US",
    account_name: "American Homeowners Association",
    amount_due: o.amount,
    amount_overpaid: 0,
    amount_paid: paid ? o.amount : 0,
    amount_remaining: paid ? 0 : o.amount,
    amount_shipping: 0,
    attempt_count: 1,
    attempted: true,
    auto_advance: !paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    billing_reason: o.billingReason ?? "subscription_cycle",
    collection_method: "charge_automatically",
    created: periodStart,
    currency: o.currency ?? "usd",
    customer: o.customer ?? id("cus"),
    customer_email: "member@example.com",
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    ending_balance: 0,
    hosted_invoice_url: null,
    invoice_pdf: null,
    last_finalization_error: o.failure ? { code: "card_declined", message: o.failure, type: "card_error" } : null,
    lines: {
      object: "list",
      data: [
        {
          id: id("il"),
          object: "line_item",
          amount: o.amount,
          currency: o.currency ?? "usd",
          description: "1 × Membership",
          invoice: invoiceId,
          period: { end: periodEnd, start: periodStart },
          quantity: 1,
        },
      ],
      has_more: false,
      url: `/v1/invoices/${invoiceId}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: o.nextAttempt ?? null,
    number: "AHA-0001",
    parent: {
      quote_details: null,
      subscription_details: { metadata: {}, subscription: o.subscription },
      type: "subscription_details",
    },
    payments: {
      object: "list",
      data: paid
        ? [
            {
              id: id("inpay"),
              object: "invoice_payment",
              amount_paid: o.amount,
              amount_requested: o.amount,
              currency: o.currency ?? "usd",
              invoice: invoiceId,
              is_default: true,
              payment: { payment_intent: o.paymentIntent ?? id("pi"), type: "payment_intent" },
              status: "paid",
            },
          ]
        : [],
      has_more: false,
      url: `/v1/invoice_payments?invoice=${invoiceId}`,
    },
    period_end: periodStart,
    period_start: periodStart,
    status: paid ? "paid" : "open",
    subtotal: o.amount,
    total: o.amount,
  };
}

export function charge(o: { paymentIntent: string; amount: number; refunded: number; currency?: string; id?: string }) {
  return {
    id: o.id ?? id("ch"),
    object: "charge",
    amount: o.amount,
    amount_captured: o.amount,
    amount_refunded: o.refunded,
    balance_transaction: id("txn"),
    billing_details: { address: null, email: "member@example.com", name: "Pat Member", phone: null },
    captured: true,
    created: nowSeconds() - 3600,
    currency: o.currency ?? "usd",
    customer: id("cus"),
    description: null,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: o.paymentIntent,
    payment_method: id("pm"),
    payment_method_details: { card: { brand: "visa", last4: "4242", exp_month: 8, exp_year: 2030, funding: "credit" }, type: "card" },
    receipt_email: null,
    refunded: o.refunded >= o.amount,
    status: "succeeded",
  };
}

export function subscription(o: {
  id: string;
  status?: string;
  interval?: "month" | "year";
  amount?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  customer?: string;
}) {
  const start = nowSeconds() - 86_400;
  const end = o.periodEnd ?? start + 30 * 86_400;
  return {
    id: o.id,
    object: "subscription",
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: start,
    cancel_at: o.cancelAtPeriodEnd ? end : null,
    cancel_at_period_end: o.cancelAtPeriodEnd ?? false,
    canceled_at: o.status === "canceled" ? nowSeconds() : null,
    collection_method: "charge_automatically",
    created: start,
    currency: "usd",
    customer: o.customer ?? id("cus"),
    default_payment_method: id("pm"),
    ended_at: o.status === "canceled" ? nowSeconds() : null,
    items: {
      object: "list",
      data: [
        {
          id: id("si"),
          object: "subscription_item",
          created: start,
          current_period_end: end,
          current_period_start: start,
          price: {
            id: id("price"),
            object: "price",
            active: true,
            currency: "usd",
            recurring: { interval: o.interval ?? "month", interval_count: 1, usage_type: "licensed" },
            type: "recurring",
            unit_amount: o.amount ?? 1995,
          },
          quantity: 1,
          subscription: o.id,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${o.id}`,
    },
    latest_invoice: id("in"),
    livemode: false,
    metadata: {},
    start_date: start,
    status: o.status ?? "active",
  };
}

export const newId = id;
