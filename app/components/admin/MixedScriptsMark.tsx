import { MIXED_SCRIPTS_MARK, hasMixedScripts, mixedScriptsLabel, scriptsOf } from "~/platform/text-fields";

/**
 * Beside a name whose letters come from more than one writing system ("Аlice" with a Cyrillic
 * А): staff choosing between members see that it is not the name it looks like (issue 39).
 * Nothing for an ordinary name.
 */
export function MixedScriptsMark({ name }: { name: string | null | undefined }) {
  if (!hasMixedScripts(name)) return null;
  const label = mixedScriptsLabel(scriptsOf(name!));
  return (
    <span
      className="ml-1.5 inline-flex items-center whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300"
      title={label}
      data-testid="mixed-scripts"
    >
      <span aria-hidden>{MIXED_SCRIPTS_MARK}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
