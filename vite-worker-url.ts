import type { Plugin } from "vite";

/**
 * A Node worker thread in the server build. Source code names the thread's URL with a
 * placeholder identifier; in the server build this plugin emits the thread's module as a
 * file of its own (`fileName`) and puts Rollup's URL of that file in place of the identifier,
 * which resolves from wherever the code using it ends up. Outside the build (tests, `npm run
 * dev`) the identifier stays undefined and the code runs the TypeScript source instead.
 */
export function workerUrl(placeholder: string, source: string, fileName: string): Plugin {
  return {
    name: `worker-url:${fileName}`,
    apply: "build",
    transform(code, _id, options) {
      if (!options?.ssr || !code.includes(placeholder)) return null;
      const ref = this.emitFile({ type: "chunk", id: source, fileName });
      return { code: code.replaceAll(placeholder, `import.meta.ROLLUP_FILE_URL_${ref}`), map: null };
    },
  };
}
