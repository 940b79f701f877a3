import type { Route } from "./+types/sitemap-xml";
import { buildSitemap, siteOrigin } from "~/features/seo/sitemap";

export async function loader({ request, context }: Route.LoaderArgs) {
  const body = buildSitemap(siteOrigin(context.publicConfig.publicUrl, request.url));
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
