import { z } from "zod";

/*
 * The one import of zod for the app's own modules. In the browser zod runs jitless: otherwise
 * its first object schema probes `new Function("")`, which the CSP refuses (script-src has no
 * 'unsafe-eval') and reports as a violation on every page that builds a schema, although zod
 * catches it. This module is evaluated before any module that imports it builds a schema.
 * On the server the probe succeeds and the compiled fast path stays.
 */
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
