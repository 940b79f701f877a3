import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";

export const streamTimeout = 5_000;

/**
 * Renders the whole document before answering (pages here are small; crawlers and no-JS
 * visitors get complete HTML), with the per-request CSP nonce on every script.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  return new Promise((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      // Sent whole: no part of the page is sent apart and put in place by a script (a form that
      // comes after its page, components/forms/afterPage, is a Suspense boundary).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        // A refusal (a 4xx) is the caller's mistake, logged as what it is, whoever threw it.
        if (isRouteErrorResponse(error) && error.status < 500) {
          loadContext.services?.logger.info({ status: error.status, path: new URL(request.url).pathname }, "page request refused");
          return;
        }
        responseStatusCode = 500;
        loadContext.services?.logger.error({ err: error }, "render error");
      },
    });
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  const path = new URL(request.url).pathname;
  // React Router's own refusals (no route, no action for a method) are the caller's mistake.
  if (isRouteErrorResponse(error) && error.status < 500) {
    context.services?.logger.info({ status: error.status, path }, "page request refused");
    return;
  }
  context.services?.logger.error({ err: error, path }, "loader or action error");
}
