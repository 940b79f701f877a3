import { isRouteErrorResponse } from "react-router";
import { NotFound } from "./NotFound";

/**
 * The page shown for an error a route answered (a loader's or an action's refusal, or a fault
 * of ours): the site's error boundary, and the guards' for anything but 401. A guard renders it
 * rather than throwing the error on, since an error thrown while rendering on the server is
 * logged as a render error, whatever its status.
 */
export function RouteError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A request the visitor can correct (400, 405) says what was wrong; anything else stays generic.
  const message =
    isRouteErrorResponse(error) &&
    status >= 400 &&
    status < 500 &&
    typeof error.data === "string" &&
    !(error as { internal?: boolean }).internal
      ? error.data
      : "We could not show this page. Please try again in a moment, or go back to the home page.";
  return (
    <section className="container-page py-24 text-center">
      <title>Something went wrong | American Homeowners Association</title>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Error {status}</p>
      <h1 className="mt-2 font-serif text-3xl font-bold text-brand-900">Something went wrong</h1>
      <p className="mx-auto mt-4 max-w-md text-slate-600">{message}</p>
      <a href="/" className="btn-primary mt-8">
        Back to Home
      </a>
    </section>
  );
}
