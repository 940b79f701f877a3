import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),

  // Public forms: contact, form requests, payment hand-over.
  route("contact-us", "routes/contact-us.tsx"),
  route("form-requests", "routes/form-requests.tsx"),
  route("make-payment", "routes/make-payment.tsx"),

  // Signed-in users (members and staff).
  layout("routes/guard-user.tsx", [
    route("knowledge-center", "routes/knowledge-center.tsx", { id: "knowledge-center" }),
    route("knowledge", "routes/knowledge-center.tsx", { id: "knowledge" }),
    route("application", "routes/application.tsx"),
  ]),

  // Staff (limited_admin, super_admin).
  layout("routes/guard-admin.tsx", [
    route("admin", "routes/admin-dashboard.tsx", { id: "admin" }),
    route("admin/dashboard", "routes/admin-dashboard.tsx", { id: "admin-dashboard" }),
    route("admin/rss", "routes/admin-rss.tsx"),
    route("admin/upload", "routes/admin-upload.tsx"),
    route("admin/users", "routes/admin-users.tsx"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
