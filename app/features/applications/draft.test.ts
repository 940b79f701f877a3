import { describe, expect, it } from "vitest";
import { pickDraft } from "~/components/forms/draft";
import { FIELD_LABELS, SIGNATURE_FIELDS } from "./contract";
import { APPLICATION_DRAFT_FIELDS, hasUnsentInput } from "./draft";

describe("the application's draft", () => {
  it("never keeps a signature, a payment choice or anything of the card", () => {
    const kept: readonly string[] = APPLICATION_DRAFT_FIELDS;
    for (const name of [...SIGNATURE_FIELDS, "ccNameOnCard", "ccCardholderSignature", "ccProcessDate"]) expect(kept).not.toContain(name);
    expect(kept.filter((name) => name.startsWith("payment") || name.startsWith("cc"))).toEqual([]);
    for (const name of kept) expect(Object.keys(FIELD_LABELS)).toContain(name);
  });

  it("takes only the named text fields of the form's values", () => {
    const values = {
      applicantName: "Dana Reyes",
      ccNameOnCard: "DANA REYES",
      applicantSignature: "data:image/png;base64,AAAA",
      paymentUseCreditCard: "on",
      city: ["not", "text"],
    };
    expect(pickDraft(values, APPLICATION_DRAFT_FIELDS)).toEqual({ applicantName: "Dana Reyes" });
  });

  it("counts anything typed, ticked or signed as unsent, but not today's date", () => {
    expect(hasUnsentInput({ todaysDate: "2026-11-26" })).toBe(false);
    expect(hasUnsentInput({ todaysDate: "2026-11-26", city: "  " })).toBe(false);
    expect(hasUnsentInput({ todaysDate: "2026-11-26", city: "Stamford" })).toBe(true);
    expect(hasUnsentInput({ applicantSignature: "data:image/png;base64,AAAA" })).toBe(true);
    expect(hasUnsentInput(undefined)).toBe(false);
  });
});
