/** A select's options in labelled groups (`<optgroup>`), e.g. the article categories. */
export function GroupedOptions({
  groups,
  labelOf,
}: {
  groups: ReadonlyArray<{ label: string; values: readonly string[] }>;
  labelOf: (value: string) => string;
}) {
  return (
    <>
      {groups.map((group) => (
        <optgroup key={group.label} label={group.label}>
          {group.values.map((value) => (
            <option key={value} value={value}>
              {labelOf(value)}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
