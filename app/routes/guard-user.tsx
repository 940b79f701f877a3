import { Outlet, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/guard-user";
import { gateVisitorFromKnowledgeCenter, requireUser } from "~/features/auth/guards.server";
import { useAuthSync } from "~/features/auth/auth-sync";
import { AuthRequired, VerifyingAuth } from "~/features/auth/GuardScreens";
import { RouteError } from "~/components/RouteError";

/** Pages for any signed-in user. Each child loader checks the session again itself. */
export async function loader({ context, request }: Route.LoaderArgs) {
  gateVisitorFromKnowledgeCenter(context, new URL(request.url).pathname);
  requireUser(context);
  return null;
}

/**
 * In the browser: the session check answered 401 shows the login wall, and its redirect (a
 * visitor at the knowledge center) is followed; a check that got no answer (the server
 * restarting, the network gone) lets the page's own loader say what it could not load, within
 * the site's frame. The page's data is guarded by its own loader and by the API either way.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (err) {
    if (isRouteErrorResponse(err) || err instanceof Response) throw err;
    return null;
  }
}

export default function UserGuard() {
  const { checking } = useAuthSync();
  return checking ? <VerifyingAuth /> : <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 401) return <AuthRequired />;
  return <RouteError error={error} />;
}
