import type { Rollup } from "vite";

/**
 * Rollup `manualChunks` for the client build: the client entry and everything it and the root
 * route (app/root.tsx) import statically, from React, React DOM and React Router to the
 * header's icons, go into one chunk (the entry's own file).
 *
 * Every page loads the entry and the root route, so every page downloads all of that anyway.
 * Left to itself, Rollup cuts it into one chunk per set of routes sharing a module (an icon
 * used by the header and by the contact page becomes a file of its own): some thirty files of
 * a few hundred bytes on a first visit, each a request of its own. Code behind import() (the
 * site's dialogs) is not reached statically and stays out.
 *
 * A package imported through a file that only re-exports (lucide-react's list of every icon)
 * is followed name by name: the shell takes the icons the root uses, not all of them.
 */
export function shellChunk(
  name = "shell",
  roots = /(\/app\/root\.tsx\?|\/entry\.client\.[jt]sx?$)/,
  site?: SiteChunk,
): Rollup.GetManualChunk {
  let shell: Set<string> | null = null;
  let shared: Set<string> | null = null;
  return (id, { getModuleIds, getModuleInfo }) => {
    shell ??= reachedFrom(
      [...getModuleIds()].filter((m) => roots.test(m)),
      getModuleInfo,
    );
    if (/\.css($|\?)/.test(id)) return undefined;
    if (shell.has(id)) return name;
    if (!site) return undefined;
    shared ??= smallShared([...getModuleIds()], getModuleInfo, shell, site);
    return shared.has(id) ? site.name : undefined;
  };
}

/**
 * The small modules the public pages share (a page heading, an icon, the meta tags) in one
 * chunk of their own, instead of one file for each set of pages that shares them.
 *
 * Left to itself, Rollup gives every set of routes sharing a module a chunk: the home page
 * loaded twelve files of a few hundred bytes each beside its own. On a first visit over
 * HTTP/1.1 a browser opens six connections to a host, so a dozen small files queue behind
 * each other, a round trip each, before the page can run (and Lighthouse's mobile simulation
 * counts them so). In one chunk a page downloads a few hundred bytes it does not use, once, and
 * the browser caches the file for every other page.
 */
export interface SiteChunk {
  name: string;
  /** A route module that is a public page (the home page, the forms; not the signed-in ones). */
  isPublicRoute: (id: string) => boolean;
  /** A route module: public or not. */
  isRoute: (id: string) => boolean;
  /** Larger modules keep Rollup's own grouping (bytes of the module's code before minifying). */
  maxBytes: number;
}

/**
 * The site's small modules (under site.maxBytes) that three or more public pages import
 * statically, past the shell, and the icons that two or more do. Shared by only two pages, a
 * module that is not an icon stays in Rollup's chunk for those pages: in the common chunk it
 * would be bytes every other page downloads for nothing (the calculator's and the forms' helpers).
 */
function smallShared(ids: string[], getModuleInfo: GetModuleInfo, shell: Set<string>, site: SiteChunk): Set<string> {
  const publicRoutes = new Map<string, number>();
  // A route module can appear under more than one id (React Router's build adds a query): one file, one route.
  const byFile = new Map<string, string[]>();
  for (const id of ids.filter(site.isPublicRoute)) byFile.set(id.split("?")[0], [...(byFile.get(id.split("?")[0]) ?? []), id]);
  for (const routeIds of byFile.values()) {
    for (const id of reachedFrom(routeIds, getModuleInfo)) {
      if (!site.isRoute(id) && !shell.has(id)) publicRoutes.set(id, (publicRoutes.get(id) ?? 0) + 1);
    }
  }
  const small = new Set<string>();
  for (const [id, routes] of publicRoutes) {
    const bytes = getModuleInfo(id)?.code?.length ?? Infinity;
    // The site's own modules and icons; a library keeps its own chunks (a form library's many small modules are not small together).
    const ours = !id.includes("/node_modules/") || id.includes("/node_modules/lucide-react/");
    const icon = id.includes("/node_modules/lucide-react/dist/esm/icons/");
    if (ours && routes >= (icon ? 2 : 3) && bytes <= site.maxBytes && !site.isRoute(id)) small.add(id);
  }
  // Only modules whose own imports are in the shell or here: a small module that imports a form
  // library would bring the library to every page.
  for (let changed = true; changed;) {
    changed = false;
    for (const id of small) {
      const imports = getModuleInfo(id)?.importedIds ?? [];
      if (imports.some((i) => !shell.has(i) && !small.has(i) && !getModuleInfo(i)?.isExternal)) {
        small.delete(id);
        changed = true;
      }
    }
  }
  return small;
}

type GetModuleInfo = (id: string) => Rollup.ModuleInfo | null;
type Statement = Rollup.ProgramNode["body"][number];
/** The names a module asks of another: some, or all of them. */
type Wanted = Set<string> | "all";

const sourceOf = (node: Statement): string | null =>
  (node.type === "ImportDeclaration" || node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") && node.source
    ? String(node.source.value)
    : null;

const nameOf = (node: { type: string; name?: string; value?: unknown }) => (node.type === "Identifier" ? node.name! : String(node.value));

interface Import {
  source: string | null;
  id: string;
  wanted: Wanted;
}

/**
 * Each statically imported module with the names asked of it. Rollup lists `importedIds` in
 * the order the module's import and export-from declarations name their sources; when that
 * cannot be matched up, every name is taken (the safe side: more in the shell, never less).
 */
function importsOf(info: Rollup.ModuleInfo): Import[] {
  const sources: string[] = [];
  const wanted = new Map<string, Wanted>();
  for (const node of info.ast?.body ?? []) {
    const source = sourceOf(node);
    if (source === null) continue;
    if (!wanted.has(source)) {
      sources.push(source);
      wanted.set(source, new Set());
    }
    const names = wanted.get(source)!;
    if (names === "all") continue;
    if (node.type === "ExportAllDeclaration") wanted.set(source, "all");
    else if (node.type === "ImportDeclaration" || node.type === "ExportNamedDeclaration") {
      for (const s of node.specifiers) {
        if (s.type === "ImportNamespaceSpecifier") wanted.set(source, "all");
        else if (s.type === "ImportDefaultSpecifier") names.add("default");
        else if (s.type === "ImportSpecifier") names.add(nameOf(s.imported));
        else if (s.type === "ExportSpecifier") names.add(nameOf(s.local));
      }
    }
  }
  const ids = info.importedIds;
  const misread = (source: string, id: string) => /^(@|\w)/.test(source) && !id.includes(`/node_modules/${source}`) && !id.startsWith("\0");
  if (!info.ast || ids.length !== sources.length || sources.some((s, i) => misread(s, ids[i]))) {
    return ids.map((id) => ({ source: null, id, wanted: "all" }));
  }
  return ids.map((id, i) => ({ source: sources[i], id, wanted: wanted.get(sources[i])! }));
}

/** A module of a package that holds nothing but re-exports (a barrel such as lucide-react's). */
function isBarrel(info: Rollup.ModuleInfo): boolean {
  return (
    info.id.includes("/node_modules/") &&
    !!info.ast &&
    info.ast.body.every(
      (n) =>
        n.type === "ImportDeclaration" ||
        n.type === "ExportAllDeclaration" ||
        (n.type === "ExportNamedDeclaration" && (n.source !== null || n.declaration === null)) ||
        (n.type === "ExpressionStatement" && "directive" in n),
    )
  );
}

/** Every module the entries import statically; through a barrel, only what the names used lead to. */
function reachedFrom(entries: string[], getModuleInfo: GetModuleInfo): Set<string> {
  const reached = new Set<string>();
  /** Names already followed through each barrel. */
  const followed = new Map<string, Set<string>>();
  const stack: Array<[string, Wanted]> = entries.map((id) => [id, "all"]);
  while (stack.length) {
    const [id, wanted] = stack.pop()!;
    const info = getModuleInfo(id);
    if (!info || info.isExternal) continue;
    if (wanted !== "all" && isBarrel(info)) {
      const done = followed.get(id) ?? new Set<string>();
      followed.set(id, done);
      const fresh = new Set([...wanted].filter((n) => !done.has(n)));
      if (!fresh.size) continue;
      fresh.forEach((n) => done.add(n));
      const imports = importsOf(info);
      const idOf = new Map(imports.map((i) => [i.source, i.id]));
      if (imports.some((i) => i.source === null)) {
        imports.forEach((i) => stack.push([i.id, "all"]));
        continue;
      }
      // A name imported and exported again (`import { a } from "./x"; export { a as b }`).
      const importedAs = new Map<string, [string, string]>();
      for (const node of info.ast!.body) {
        if (node.type !== "ImportDeclaration") continue;
        for (const s of node.specifiers) {
          const name = s.type === "ImportSpecifier" ? nameOf(s.imported) : s.type === "ImportDefaultSpecifier" ? "default" : "*";
          importedAs.set(s.local.name, [String(node.source.value), name]);
        }
      }
      const follow = (source: string | null, names: Set<string> | "all") => {
        const target = idOf.get(source);
        if (target) stack.push([target, names instanceof Set && names.has("*") ? "all" : names]);
      };
      for (const node of info.ast!.body) {
        if (node.type === "ExportAllDeclaration") follow(sourceOf(node), fresh);
        if (node.type !== "ExportNamedDeclaration") continue;
        for (const s of node.specifiers) {
          if (!fresh.has(nameOf(s.exported))) continue;
          if (node.source) follow(sourceOf(node), new Set([nameOf(s.local)]));
          else if (importedAs.has(nameOf(s.local))) {
            const [source, name] = importedAs.get(nameOf(s.local))!;
            follow(source, new Set([name]));
          }
        }
      }
      continue;
    }
    if (reached.has(id)) continue;
    reached.add(id);
    for (const next of importsOf(info)) stack.push([next.id, next.wanted]);
  }
  return reached;
}
