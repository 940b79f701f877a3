import type { Route } from "./+types/robots-txt";
import { buildRobots, siteOrigin } from "~/features/seo/sitemap";

export async function loader({ request, context }: Route.LoaderArgs) {
  const body = buildRobots(siteOrigin(context.publicConfig.publicUrl, request.url));
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
