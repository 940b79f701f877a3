import { createApp } from "../../app/server/app.server";
import type { Services } from "../../app/server/services.server";

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * Every route of the app's Express routers as "METHOD path", one per path of a route with
 * aliases; `router.all` (which answers the methods a path does not take with 405) as OTHER.
 * Read from the routers themselves, so a new endpoint is listed without anyone listing it.
 */
export function listApiRoutes(services: Services): string[] {
  const app = createApp(services) as unknown as { router: { stack: Layer[] } };
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const method of Object.keys(layer.route.methods))
          for (const p of paths) found.push(`${method === "_all" ? "OTHER" : method.toUpperCase()} ${p}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk(app.router.stack);
  return found;
}
