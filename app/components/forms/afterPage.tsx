import { lazy, Suspense, type ComponentType } from "react";

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
 * leaves it so. Reached by a link, the form shows once its code has arrived.
 *
 * `load` is declared once, at module level: `formAfterPage(() => import("./X").then((m) => m.X))`.
 */
export function formAfterPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => (loading ??= load());
  // In the browser the fetch starts with the page's module, before the page hydrates.
  if (typeof document !== "undefined") start().catch(() => {});
  const Form = lazy(() =>
    start().then(
      (component) => ({ default: component }),
      // The server's form goes on working as a form without JavaScript.
      () => new Promise<never>(() => {}),
    ),
  );
  function FormAfterPage(props: P) {
    return (
      <Suspense fallback={null}>
        <Form {...props} />
      </Suspense>
    );
  }
  return FormAfterPage;
}
