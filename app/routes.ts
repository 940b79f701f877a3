import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),

  // Public marketing pages, the e-mail confirmation page and search-engine files.
  route("about-us", "routes/about-us.tsx"),
  route("membership-benefits", "routes/membership-benefits.tsx"),
  route("members-only", "routes/members-only.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("confirm-email", "routes/email-confirmation.tsx", { id: "confirm-email" }),
  route("auth/confirm", "routes/email-confirmation.tsx", { id: "auth-confirm" }),
  route("auth/callback", "routes/email-confirmation.tsx", { id: "auth-callback" }),
  route("email-confirmation", "routes/email-confirmation.tsx", { id: "email-confirmation" }),
  route("robots.txt", "routes/robots-txt.ts"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),

  // Public forms: contact, form requests, payment hand-over.
  route("contact-us", "routes/contact-us.tsx"),
  route("form-requests", "routes/form-requests.tsx"),
  route("make-payment", "routes/make-payment.tsx"),
  route("mortgage-calculator", "routes/mortgage-calculator.tsx"),
  route("mortgage-calculator/print", "routes/mortgage-calculator-print.tsx"),

  // Where a proof-of-coverage card's QR code leads (public; shows three facts).
  route("verify/:token", "routes/verify.tsx"),

  // Where the link sent to a member's new e-mail address leads (public: the link is the proof).
  route("account/email/:token", "routes/account-email.tsx"),
  route("unsubscribe/:token", "routes/unsubscribe.tsx"),

  // Signed-in users (members and staff).
  layout("routes/guard-user.tsx", [
    route("knowledge-center", "routes/knowledge-center.tsx", { id: "knowledge-center" }),
    route("knowledge", "routes/knowledge-center.tsx", { id: "knowledge" }),
    route("application", "routes/application.tsx"),
    route("account", "routes/account.tsx"),
  ]),

  // Staff (limited_admin, super_admin).
  layout("routes/guard-admin.tsx", [
    route("admin", "routes/admin-dashboard.tsx", { id: "admin" }),
    route("admin/dashboard", "routes/admin-dashboard.tsx", { id: "admin-dashboard" }),
    route("admin/rss", "routes/admin-rss.tsx"),
    route("admin/upload", "routes/admin-upload.tsx"),
    route("admin/users", "routes/admin-users.tsx"),
    route("admin/members", "routes/admin-members.tsx"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
