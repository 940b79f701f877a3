import { Outlet, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/guard-admin";
import { requireAdmin } from "~/features/auth/guards.server";
import { useAuthSync } from "~/features/auth/auth-sync";
import { AuthRequired, VerifyingAuth } from "~/features/auth/GuardScreens";
import { RouteError } from "~/components/RouteError";

/** Staff pages: a logged-out visitor sees 'Authentication Required', a member is sent to /. */
export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

export default function AdminGuard() {
  const { checking } = useAuthSync();
  return checking ? <VerifyingAuth /> : <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 401) return <AuthRequired />;
  return <RouteError error={error} />;
}
