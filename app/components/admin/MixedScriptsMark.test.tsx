import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MixedScriptsMark } from "./MixedScriptsMark";

describe("the mixed-scripts mark (issue 39)", () => {
  it("shows '⚠ mixed scripts' beside a look-alike name, with a label that says why; nothing beside an ordinary name", () => {
    const html = renderToStaticMarkup(<MixedScriptsMark name={"\u0410lice Anders"} />);
    expect(html).toContain("⚠ mixed scripts");
    expect(html).toContain("Mixed scripts: this name mixes Cyrillic and Latin letters and may imitate another name.");
    expect(renderToStaticMarkup(<MixedScriptsMark name="Alice Anders" />)).toBe("");
  });
});
