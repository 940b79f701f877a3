import { lazy, Suspense, useEffect, useState, type ComponentType } from "react";

/** What a page reached by a link says when its form's code could not be fetched (issue 48). */
export const FORM_LOAD_FAILED = "The form could not be loaded. Check your connection, then reload the page.";

/**
 * A form whose code comes after its page: the form's component, Conform, zod and its schema
 * (some 45 KB gzip: a form page's first load went from 173 to 127-129 KB) are not part of the
 * page's first load (`npm run js-budget`), and do not run in the same tasks as the page's
 * hydration.
 *
 * The server renders the form in full, as before (the whole document is rendered before it
 * is sent: entry.server.tsx). In the browser the form's code is fetched as soon as the page's
 * route module runs, and the page hydrates without waiting for it: until it has arrived the
 * server's form is left as it is, and works as it does without JavaScript (typed values stay,
 * a send posts to the page's action, which checks it with the same schema and answers with the
 * page and its messages); then the form hydrates with what was typed in it. A failed fetch
 * leaves it so. Reached by a link, "Loading the form…" shows until its code has arrived; when
 * its fetch fails, it says so and offers to reload the page (loaded whole, the page's form works
 * without its code).
 *
 * `load` is declared once, at module level: `formAfterPage(() => import("./X").then((m) => m.X))`.
 */
export function formAfterPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let failed = false;
  const start = () =>
    (loading ??= load().catch((err: unknown) => {
      failed = true;
      throw err;
    }));
  // In the browser the fetch starts with the page's module, before the page hydrates.
  if (typeof document !== "undefined") start().catch(() => {});
  const Form = lazy(() =>
    start().then(
      (component) => ({ default: component }),
      // The server's form goes on working as a form without JavaScript.
      () => new Promise<never>(() => {}),
    ),
  );
  /**
   * Shown only when the page was reached by a link and the form's code is still on its way (a
   * page loaded whole keeps the server's form until the code has come), or could not come.
   */
  function FormLoading() {
    const [lost, setLost] = useState(failed);
    useEffect(() => {
      let live = true;
      start().catch(() => live && setLost(true));
      return () => {
        live = false;
      };
    }, []);
    if (!lost)
      return (
        <p role="status" className="py-8 text-center text-slate-600">
          Loading the form…
        </p>
      );
    return (
      <div role="alert" className="space-y-4 py-8 text-center text-slate-700">
        <p>{FORM_LOAD_FAILED}</p>
        <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
  function FormAfterPage(props: P) {
    return (
      <Suspense fallback={<FormLoading />}>
        <Form {...props} />
      </Suspense>
    );
  }
  return FormAfterPage;
}
