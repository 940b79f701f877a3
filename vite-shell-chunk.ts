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
export function shellChunk(name = "shell", roots = /(\/app\/root\.tsx\?|\/entry\.client\.[jt]sx?$)/): Rollup.GetManualChunk {
  let shell: Set<string> | null = null;
  return (id, { getModuleIds, getModuleInfo }) => {
    shell ??= reachedFrom(
      [...getModuleIds()].filter((m) => roots.test(m)),
      getModuleInfo,
    );
    return shell.has(id) && !/\.css($|\?)/.test(id) ? name : undefined;
  };
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
