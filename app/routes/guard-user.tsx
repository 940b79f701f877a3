import { Outlet, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/guard-user";
import { requireUser } from "~/features/auth/guards.server";
import { useAuthSync } from "~/features/auth/auth-sync";
import { AuthRequired, VerifyingAuth } from "~/features/auth/GuardScreens";

/** Pages for any signed-in user. Each child loader checks the session again itself. */
export async function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export default function UserGuard() {
  const { checking } = useAuthSync();
  return checking ? <VerifyingAuth /> : <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 401) return <AuthRequired />;
  throw error;
}
