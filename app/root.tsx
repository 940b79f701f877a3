import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { Header } from "./shell/Header";
import { Footer } from "./shell/Footer";
import { SiteDialogsProvider } from "./shell/SiteDialogs";
import { RouteError } from "./components/RouteError";
import { DEFAULT_PUBLIC_CONFIG } from "./components/usePublicConfig";
import { AuthSyncProvider } from "./features/auth/auth-sync";
import type { RootShellData } from "./platform/public-config";
import { yearIn } from "./platform/dates";

export async function loader({ context, request }: Route.LoaderArgs) {
  // Absolute URLs for canonical links and share images: PUBLIC_URL, else the address asked for.
  const siteUrl = (context.publicConfig.publicUrl ?? new URL(request.url).origin).replace(/\/$/, "");
  // The footer's copyright year: the association's, read for every render, never the browser's clock.
  const year = yearIn(context.publicConfig.timeZone);
  const data = { user: context.user, config: context.publicConfig, nonce: context.cspNonce, siteUrl, year };
  // What shared components read of it (app/platform/public-config.ts).
  return data satisfies RootShellData;
}

// The session can change under any navigation (expiry, another tab): always re-read it.
export const shouldRevalidate = () => true;

type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * The header and footer's data as this browser last showed them. Read only in the browser
 * (the server renders every request from its own loader), and kept by the clientLoader below.
 */
let shownRootData: RootData | null = null;

/**
 * In the browser, a navigation re-reads the session through the server loader. When that
 * read gets no answer (the server restarting, the network gone), the header and footer keep
 * what they showed and the page's own loader says what it could not load; an error of the
 * root route would otherwise replace the whole page, header and footer included.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  try {
    shownRootData = await serverLoader();
    return shownRootData;
  } catch (err) {
    if (shownRootData && !isRouteErrorResponse(err)) return shownRootData;
    throw err;
  }
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const loaded = useRouteLoaderData<typeof loader>("root");
  useEffect(() => {
    if (loaded) shownRootData = loaded;
  }, [loaded]);
  // An error page keeps the site's header and footer: without this request's data (the root
  // loader itself failed), with what the browser showed last, or signed out with the default contacts.
  const data = loaded ??
    shownRootData ?? {
      user: null,
      config: DEFAULT_PUBLIC_CONFIG,
      nonce: undefined,
      siteUrl: "",
      // No loader data (its read failed): the browser's year, on an error page only.
      year: new Date().getFullYear(),
    };
  const nonce = data.nonce;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0c2540" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <SiteDialogsProvider paymentPortalUrl={data.config.paymentPortalUrl}>
          <AuthSyncProvider user={data.user}>
            <Header user={data.user} config={data.config} />
            <main id="main" className="flex-1">
              {children}
            </main>
            <Footer user={data.user} config={data.config} year={data.year} />
          </AuthSyncProvider>
        </SiteDialogsProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
