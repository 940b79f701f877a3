import { assignSchema as onlineAssignSchema, handledSchema } from "~/features/membership/online/contract";
import { z } from "~/platform/zod";
import { loginSchema } from "~/features/auth/contract";
import { contactSchema, cpaRequestSchema, materialRequestSchema, requestFormSchema } from "~/features/submissions/intake/schemas";
import { contactDetailsSchema } from "~/features/account/contract";
import {
  bulkDeleteSchema,
  noteSchema,
  assignSchema,
  replySchema,
  statusChangeSchema,
  submissionQuerySchema,
} from "~/features/submissions/contract";
import { feedInputSchema, feedUpdateSchema } from "~/features/articles/contract";
import { articlesQuery, ingestStatusQuery, exportQuery, feedId } from "~/features/articles/api.server";
import {
  auditQuerySchema,
  changeRoleSchema,
  createStaffSchema,
  memberQuerySchema,
  memberEditSchema,
  memberStatusSchema,
  resetPasswordSchema,
  staffSettingsSchema,
} from "~/features/members/contract";
import { videoInputSchema, videoListQuerySchema, videoOrderSchema } from "~/features/videos/contract";
import { applicationSchema, memberChoiceSchema } from "~/features/applications/contract";
import { jsonUploadSchema } from "~/features/member-import/contract";
import {
  cancelSchema,
  paymentSchema as membershipPaymentSchema,
  paymentsImportSchema,
  planSchema,
  refundSchema,
  reinstateSchema,
} from "~/features/membership/contract";
import { coInsuredSchema } from "~/features/membership/co-insured";
import { audienceInputSchema, draftSchema, previewSchema, receiveSchema, scheduleSchema } from "~/features/announcements/contract";

type Access = "public" | "signed-in" | "staff" | "super_admin" | "signed-in or ingest token" | "metrics token";

interface Endpoint {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express path, aliases included. */
  paths: string[];
  summary: string;
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  /** What the answer is when it is not JSON. */
  produces?: "text/csv" | "application/rss+xml" | "text/plain";
  /** Also takes a multipart/form-data upload (field csvFile). */
  multipart?: boolean;
}

const idBody = z.object({ id: feedId });

/**
 * Every JSON endpoint, with the zod schemas its router checks its input with (the contracts
 * themselves, so the description cannot drift from the checks). A test compares this list with
 * the routes the routers really have.
 */
export const API_ENDPOINTS: readonly Endpoint[] = [
  { method: "get", paths: ["/healthz"], summary: "Health of the server and its database", access: "public" },
  { method: "get", paths: ["/readyz"], summary: "Ready for requests: 503 while starting or draining", access: "public" },
  {
    method: "get",
    paths: ["/metrics"],
    summary: "Prometheus metrics (only when METRICS_TOKEN is set: Authorization: Bearer <token>)",
    access: "metrics token",
    produces: "text/plain",
  },
  { method: "get", paths: ["/api/openapi.json"], summary: "This description", access: "public" },
  {
    method: "post",
    paths: ["/api/auth/login", "/.netlify/functions/admin-login"],
    summary: "Sign in (member: certificate number and MMDDYY birthdate; staff: username and password)",
    access: "public",
    body: loginSchema,
  },
  { method: "post", paths: ["/api/auth/logout", "/.netlify/functions/logout"], summary: "Sign out", access: "public" },
  { method: "get", paths: ["/api/auth/me"], summary: "The signed-in user, or null", access: "public" },
  {
    method: "post",
    paths: ["/api/forms", "/api/submit-contact-form"],
    summary: "Send a contact message",
    access: "public",
    body: contactSchema,
  },
  { method: "post", paths: ["/api/submit-cpa-request"], summary: "Send a CPA request", access: "public", body: cpaRequestSchema },
  {
    method: "post",
    paths: ["/api/submit-material-request"],
    summary: "Send a homeowner material request",
    access: "public",
    body: materialRequestSchema,
  },
  { method: "post", paths: ["/api/cpa-requests"], summary: "Send the CPA request form", access: "public", body: requestFormSchema },
  {
    method: "post",
    paths: ["/api/homeowner-material-requests"],
    summary: "Send the homeowner material request form",
    access: "public",
    body: requestFormSchema,
  },
  { method: "get", paths: ["/api/admin/submissions"], summary: "One page of submissions", access: "staff", query: submissionQuerySchema },
  {
    method: "get",
    paths: ["/api/admin/submissions/export"],
    summary: "The submissions the filters show, as CSV",
    access: "staff",
    query: submissionQuerySchema,
    produces: "text/csv",
  },
  {
    method: "get",
    paths: ["/api/admin/submissions/{id}"],
    summary: "One submission (id like contact_12), with its notes and status history",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/submissions/{id}/notes"],
    summary: "Add an internal note to a submission",
    access: "staff",
    body: noteSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/submissions/{id}/reply"],
    summary: "E-mail the sender of a submission (409 when mail is not set up)",
    access: "staff",
    body: replySchema,
  },
  {
    method: "put",
    paths: ["/api/admin/submissions/{id}/assignee"],
    summary: "Assign a submission to an active staff member, or to nobody (userId null)",
    access: "staff",
    body: assignSchema,
  },
  {
    method: "get",
    paths: ["/api/admin/applications/{id}/member-matches"],
    summary:
      "The members with an application's name and date of birth, whether their stored e-mail is the application's and whether they have a plan, and the plan the application gives",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/applications/{id}/member"],
    summary:
      "Make an approved application a new member with its plan (linkTo null, 201), or link it to the matching member staff chose (200), giving a member without a plan the application's plan only with givePlan",
    access: "staff",
    body: memberChoiceSchema,
  },
  {
    method: "get",
    paths: ["/api/account"],
    summary: "The signed-in member's account: membership, submissions, contact details",
    access: "signed-in",
  },
  {
    method: "post",
    paths: ["/api/payments/stripe/webhook"],
    summary:
      "The payment provider's signed events (Stripe-Signature, raw body): verified, stored once by id, applied; 400 on a bad signature, 404 when online payments are off",
    access: "public",
  },
  {
    method: "get",
    paths: ["/api/account/membership/online"],
    summary: "The signed-in member's autopay, and (with ?since=) whether their online payment has been recorded",
    access: "signed-in",
  },
  {
    method: "get",
    paths: ["/api/account/membership/pay"],
    summary:
      "Make a Payment for a signed-in member: 302 to their plan's payment page with client_reference_id (their payment reference) and prefilled_email; anyone else to /make-payment",
    access: "public",
  },
  {
    method: "get",
    paths: ["/api/admin/membership/unmatched-payments"],
    summary: "Online payments that matched no member (or wait for what they refer to), with their count",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/membership/unmatched-payments/{id}/assign"],
    summary: "Record an unmatched online payment for the member with this Membership ID; audited",
    access: "super_admin",
    body: onlineAssignSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/membership/unmatched-payments/{id}/handled"],
    summary: "Settle an unmatched online payment without recording it; audited",
    access: "super_admin",
    body: handledSchema,
  },
  {
    method: "get",
    paths: ["/api/account/membership"],
    summary: "The signed-in member's own plan, coverage and payments",
    access: "signed-in",
  },
  {
    method: "get",
    paths: ["/api/account/membership/card"],
    summary: "The signed-in member's proof-of-coverage token, the absolute address its QR code opens and the QR code as SVG",
    access: "signed-in",
  },
  {
    method: "post",
    paths: ["/api/account/membership/card"],
    summary: "A new proof-of-coverage token (with its address and QR code); the old card stops verifying",
    access: "signed-in",
  },
  {
    method: "get",
    paths: ["/api/verify/{token}"],
    summary:
      "What a scanned proof of coverage shows: covered or not, the one date and what it is (covered through, coverage starts, coverage ended), the member's and the co-insured's first name and last initial, the day checked (404 for an unknown token; 30 look-ups per 10 minutes per address)",
    access: "public",
  },
  {
    method: "put",
    paths: ["/api/account/contact"],
    summary: "Replace the signed-in member's contact details",
    access: "signed-in",
    body: contactDetailsSchema,
  },
  {
    method: "post",
    paths: ["/api/account/sign-out-everywhere"],
    summary: "End every other session of the signed-in account (member or staff); answers how many ended",
    access: "signed-in",
  },
  {
    method: "get",
    paths: ["/api/admin/forms", "/.netlify/functions/admin-forms"],
    summary: "Every submission (the spec's admin-forms)",
    access: "staff",
  },
  {
    method: "put",
    paths: ["/api/admin/forms", "/.netlify/functions/admin-forms"],
    summary: "Change a submission's status",
    access: "staff",
    body: statusChangeSchema,
  },
  {
    method: "delete",
    paths: ["/api/admin/forms", "/.netlify/functions/admin-forms"],
    summary: "Delete submissions",
    access: "staff",
    body: bulkDeleteSchema,
  },
  { method: "get", paths: ["/api/featured-articles"], summary: "The home page's newest articles", access: "public" },
  { method: "get", paths: ["/api/rss/articles"], summary: "One page of the knowledge center", access: "signed-in", query: articlesQuery },
  {
    method: "post",
    paths: ["/api/rss/ingest"],
    summary: "Fetch every active feed now (202 while another server's run is in progress)",
    access: "signed-in or ingest token",
  },
  {
    method: "get",
    paths: ["/api/rss/ingest/status"],
    summary: "Where an ingest run stands (202 while in progress)",
    access: "signed-in or ingest token",
    query: ingestStatusQuery,
  },
  { method: "get", paths: ["/api/rss/feeds"], summary: "The feeds", access: "super_admin" },
  { method: "post", paths: ["/api/rss/feeds"], summary: "Add a feed", access: "super_admin", body: feedInputSchema },
  { method: "put", paths: ["/api/rss/feeds"], summary: "Change a feed", access: "super_admin", body: feedUpdateSchema },
  { method: "delete", paths: ["/api/rss/feeds"], summary: "Delete a feed", access: "super_admin", body: idBody },
  {
    method: "post",
    paths: ["/api/rss/feeds/retry"],
    summary: "Fetch one failing feed now, whatever its backoff",
    access: "super_admin",
    body: idBody,
  },
  {
    method: "get",
    paths: ["/api/rss/export"],
    summary: "A month's articles as RSS",
    access: "super_admin",
    query: exportQuery,
    produces: "application/rss+xml",
  },
  { method: "get", paths: ["/api/rss/health"], summary: "Feed and ingest health", access: "super_admin" },
  { method: "get", paths: ["/api/admin/members"], summary: "One page of members", access: "staff", query: memberQuerySchema },
  {
    method: "get",
    paths: ["/api/admin/members/export"],
    summary: "Members as CSV (no birthdates)",
    access: "staff",
    query: memberQuerySchema,
    produces: "text/csv",
  },
  {
    method: "patch",
    paths: ["/api/admin/members/{id}"],
    summary: "Activate or deactivate a member",
    access: "staff",
    body: memberStatusSchema,
  },
  {
    method: "put",
    paths: ["/api/admin/members/{id}"],
    summary: "Edit a member's name, contact details and birthdate (stored as a keyed digest only)",
    access: "staff",
    body: memberEditSchema,
  },
  { method: "delete", paths: ["/api/admin/members/{id}"], summary: "Delete a member", access: "staff" },
  {
    method: "get",
    paths: ["/api/admin/members/{id}/membership"],
    summary: "A member's plan, coverage (status and dates computed for today), payments and cancellations",
    access: "staff",
  },
  {
    method: "get",
    paths: ["/api/admin/members/{id}/membership/reminders"],
    summary: "A member's reminder e-mails with their state (queued, sent, failed with the retry time and reason, dropped)",
    access: "staff",
  },
  {
    method: "get",
    paths: ["/api/admin/membership/reminders/without-email"],
    summary: "Members with a plan and no e-mail address: they get no reminders (the first 100, and how many)",
    access: "staff",
  },
  {
    method: "put",
    paths: ["/api/admin/members/{id}/membership/plan"],
    summary: "Give a member a plan, or change it",
    access: "staff",
    body: planSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/members/{id}/membership/payments"],
    summary: "Record a payment (201; a reference already recorded is 409)",
    access: "staff",
    body: membershipPaymentSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/membership/payments/{id}/refund"],
    summary: "Refund a payment, whole or in part, in one refund or several that never add up to more than the payment (201)",
    access: "staff",
    body: refundSchema,
  },
  {
    method: "put",
    paths: ["/api/admin/members/{id}/membership/co-insured"],
    summary: "Enter or change the co-insured of a member's plan (the household's second person); audited by field name",
    access: "staff",
    body: coInsuredSchema,
  },
  {
    method: "delete",
    paths: ["/api/admin/members/{id}/membership/co-insured"],
    summary: "Remove the co-insured of a member's plan (404 when there is none); audited",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/membership/payments/import"],
    summary:
      "The payment portal's CSV export: previewed (apply false), or recorded all or nothing (201); references already recorded are skipped",
    access: "staff",
    body: paymentsImportSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/members/{id}/membership/cancel"],
    summary: "Cancel a membership",
    access: "super_admin",
    body: cancelSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/members/{id}/membership/reinstate"],
    summary:
      "Reinstate a cancelled membership: a new term by the same rule; the money left from the earlier term is carried into it or refunded (earlierPayments)",
    access: "super_admin",
    body: reinstateSchema,
  },
  { method: "get", paths: ["/api/admin/staff"], summary: "Staff accounts", access: "super_admin" },
  { method: "post", paths: ["/api/admin/staff"], summary: "Add a staff account", access: "super_admin", body: createStaffSchema },
  {
    method: "patch",
    paths: ["/api/admin/staff/{id}"],
    summary: "Change a staff account's role",
    access: "super_admin",
    body: changeRoleSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/staff/{id}/password"],
    summary: "Reset a staff password",
    access: "super_admin",
    body: resetPasswordSchema,
  },
  {
    method: "put",
    paths: ["/api/admin/staff/{id}/settings"],
    summary: "A staff account's own e-mail address and, for a limited admin, the announcements permission",
    access: "super_admin",
    body: staffSettingsSchema,
  },
  { method: "delete", paths: ["/api/admin/staff/{id}"], summary: "Remove a staff account", access: "super_admin" },
  { method: "get", paths: ["/api/admin/audit"], summary: "The audit log", access: "super_admin", query: auditQuerySchema },
  { method: "get", paths: ["/api/videos/categories"], summary: "Video categories and counts", access: "signed-in" },
  { method: "get", paths: ["/api/videos"], summary: "Video tutorials", access: "signed-in", query: videoListQuerySchema },
  { method: "post", paths: ["/api/videos"], summary: "Add a video", access: "super_admin", body: videoInputSchema },
  { method: "put", paths: ["/api/videos/order"], summary: "Order a category's videos", access: "super_admin", body: videoOrderSchema },
  { method: "put", paths: ["/api/videos/{id}"], summary: "Change a video", access: "super_admin", body: videoInputSchema },
  { method: "delete", paths: ["/api/videos/{id}"], summary: "Delete a video", access: "super_admin" },
  {
    method: "post",
    paths: ["/api/applications", "/.netlify/functions/applications"],
    summary: "Send a membership application",
    access: "signed-in",
    body: applicationSchema,
  },
  // Announcements (issue 41): super_admin, or a limited_admin allowed in Staff ("staff" here; the router checks the permission).
  { method: "get", paths: ["/api/admin/announcements"], summary: "Announcements, newest first, with their progress", access: "staff" },
  { method: "post", paths: ["/api/admin/announcements"], summary: "Write a draft announcement", access: "staff", body: draftSchema },
  {
    method: "get",
    paths: ["/api/admin/announcements/options"],
    summary: "What the editor offers: the members' states, whether mail is set up, the time zone, where Send test goes",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/announcements/audience"],
    summary: "How many members an audience reaches, how many have no address or opted out",
    access: "staff",
    body: audienceInputSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/announcements/preview"],
    summary: "An announcement as one member would read it",
    access: "staff",
    body: previewSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/announcements/test"],
    summary: "Send the preview to the staff member's own address (10 an hour)",
    access: "staff",
    body: previewSchema,
  },
  {
    method: "get",
    paths: ["/api/admin/announcements/{id}"],
    summary: "One announcement, its progress and the recipients not sent to",
    access: "staff",
  },
  {
    method: "put",
    paths: ["/api/admin/announcements/{id}"],
    summary: "Edit a draft or scheduled announcement",
    access: "staff",
    body: draftSchema,
  },
  { method: "delete", paths: ["/api/admin/announcements/{id}"], summary: "Delete a draft", access: "staff" },
  {
    method: "post",
    paths: ["/api/admin/announcements/{id}/schedule"],
    summary: "Schedule for a wall-clock time in the association's time zone; audited",
    access: "staff",
    body: scheduleSchema,
  },
  {
    method: "post",
    paths: ["/api/admin/announcements/{id}/send"],
    summary: "Send now: the audience is fixed and sending starts, once; audited",
    access: "staff",
  },
  {
    method: "post",
    paths: ["/api/admin/announcements/{id}/cancel"],
    summary: "Stop a scheduled or sending announcement; audited",
    access: "staff",
  },
  {
    method: "get",
    paths: ["/api/admin/announcements/{id}/problems.csv"],
    summary: "The recipients not sent to (failed, skipped) and why",
    access: "staff",
    produces: "text/csv",
  },
  {
    method: "get",
    paths: ["/api/account/announcements"],
    summary: "Whether the signed-in member receives announcements",
    access: "signed-in",
  },
  {
    method: "put",
    paths: ["/api/account/announcements"],
    summary: "Stop or resume announcements for the signed-in member",
    access: "signed-in",
    body: receiveSchema,
  },
  {
    method: "post",
    paths: ["/unsubscribe/{token}"],
    summary: "One click (RFC 8058, List-Unsubscribe=One-Click) or the unsubscribe page's button: stops announcements for the link's member",
    access: "public",
    produces: "text/plain",
  },
  { method: "get", paths: ["/api/cases/{caseNumber}"], summary: "Look up a case for the application form", access: "signed-in" },
  {
    method: "post",
    paths: ["/api/upload-users"],
    summary: "Import members from CSV (JSON, or multipart with the file in csvFile)",
    access: "staff",
    body: jsonUploadSchema,
    multipart: true,
  },
];

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" });

const ERROR = {
  type: "object",
  required: ["success", "error"],
  properties: { success: { const: false }, error: { type: "string" }, details: {} },
};

/** The OpenAPI 3.1 document served at /api/openapi.json. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of API_ENDPOINTS) {
    for (const p of endpoint.paths) {
      const parameters = [...p.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      if (endpoint.query) {
        const query = jsonSchema(endpoint.query) as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, schema] of Object.entries(query.properties ?? {}))
          parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema: schema as { type: string } });
      }
      const content: Record<string, unknown> = {};
      if (endpoint.body) content["application/json"] = { schema: jsonSchema(endpoint.body) };
      if (endpoint.multipart)
        content["multipart/form-data"] = { schema: { type: "object", properties: { csvFile: { type: "string", format: "binary" } } } };
      (paths[p] ??= {})[endpoint.method] = {
        summary: endpoint.summary,
        "x-access": endpoint.access,
        ...(parameters.length ? { parameters } : {}),
        ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
        responses: {
          "200": {
            description: "Done",
            content: { [endpoint.produces ?? "application/json"]: endpoint.produces ? { schema: { type: "string" } } : { schema: {} } },
          },
          "4XX": { description: "Refused: the caller's mistake or not allowed", content: { "application/json": { schema: ERROR } } },
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Homeowners association site API",
      version: "1",
      description:
        "Every JSON endpoint. Sign-in sets an HttpOnly session cookie; x-access says who may call each. State-changing calls from a browser must be same-origin.",
    },
    paths,
  };
}
