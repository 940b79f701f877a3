import { describe, expect, it } from "vitest";
import { localIsoDate, shiftIsoDay } from "~/domain/people";
import { CO_INSURED_MESSAGES as M, changedFields, coInsuredOfApplication, coInsuredSchema } from "./co-insured";
import { holdsWebOrMailAddress as looksLikeAddress } from "~/platform/text-fields";

/** The message of each field the schema refuses. */
function problems(input: Record<string, unknown>): Record<string, string> {
  const parsed = coInsuredSchema.safeParse(input);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("the co-insured's fields, checked as the applicant's", () => {
  it("takes a name alone; blanks are none; the phone is kept as the application keeps it", () => {
    expect(coInsuredSchema.parse({ firstName: " Sam ", lastName: "", birthdate: " ", gender: "", email: null, phone: undefined })).toEqual({
      firstName: "Sam",
      lastName: null,
      birthdate: null,
      gender: null,
      email: null,
      phone: null,
    });
    expect(
      coInsuredSchema.parse({
        firstName: "Sam",
        lastName: "O'Brien-Rivera",
        birthdate: "1984-02-29",
        gender: "Prefer not to say",
        email: "sam@example.com",
        phone: "555 123 4567",
      }),
    ).toMatchObject({ lastName: "O'Brien-Rivera", birthdate: "1984-02-29", gender: "Prefer not to say", phone: "(555) 123-4567" });
  });

  it("refuses each bad field with its own message", () => {
    expect(problems({ firstName: "  " })).toEqual({ firstName: M.firstName });
    expect(problems({})).toEqual({ firstName: M.firstName });
    expect(
      problems({
        firstName: "x".repeat(101),
        lastName: "Ri\u202Evera",
        birthdate: "1984-02-30",
        gender: "Unknown",
        email: "sam@",
        phone: "12345",
      }),
    ).toEqual({
      firstName: "First name must be at most 100 characters.",
      lastName: "Last name contains characters that are not allowed.",
      birthdate: "Date of birth must be a real date.",
      gender: "Gender must be one of: Female, Male, Other, Prefer not to say.",
      email: M.email,
      phone: M.phone,
    });
    expect(problems({ firstName: "Sam", birthdate: shiftIsoDay(localIsoDate(), 1) })).toEqual({
      birthdate: "Date of birth cannot be in the future.",
    });
    expect(problems({ firstName: "Sam", birthdate: "1890-01-01" })).toEqual({ birthdate: "Date of birth must be a real date." });
    expect(problems({ firstName: "Sam", lastName: ["Rivera"] })).toEqual({ lastName: "Last name must be text." });
  });

  it("names are names: no web or e-mail addresses", () => {
    expect(problems({ firstName: "Pay now at http://evil.example/pay - urgent" })).toEqual({ firstName: M.notAName("First name") });
    expect(problems({ firstName: "Sam", lastName: "sam@evil.example" })).toEqual({ lastName: M.notAName("Last name") });
    for (const address of ["www.evil.example", "evil.example/pay", "HTTPS://x.y", "a@b"]) expect(looksLikeAddress(address)).toBe(true);
    for (const name of ["St. John", "J.R.R.", "O'Brien-Smith", "Mary Ann", "Dr.Who"]) expect(looksLikeAddress(name)).toBe(false);
  });

  it("names the fields that changed, never their values", () => {
    const before = { firstName: "Sam", lastName: "Rivera", birthdate: null, gender: null, email: "sam@example.com", phone: null };
    expect(changedFields(null, before)).toEqual(["firstName", "lastName", "email"]);
    expect(changedFields(before, { ...before, email: null, phone: "(555) 123-4567" })).toEqual(["email", "phone"]);
    expect(changedFields(before, before)).toEqual([]);
  });

  it("an application's co-applicant, or none when it names nobody", () => {
    const fields = { co_dob: "1986-05-04", co_gender: "Female", co_email: "", co_phone: "(555) 765-4321" };
    expect(coInsuredOfApplication({ first: "Sam Q.", last: "Rivera" }, fields)).toEqual({
      firstName: "Sam Q.",
      lastName: "Rivera",
      birthdate: "1986-05-04",
      gender: "Female",
      email: null,
      phone: "(555) 765-4321",
    });
    expect(coInsuredOfApplication({ first: null, last: null }, fields)).toBeNull();
    expect(coInsuredOfApplication({ first: "Sam", last: null }, { ...fields, co_gender: "Robot" })?.gender).toBeNull();
  });
});
