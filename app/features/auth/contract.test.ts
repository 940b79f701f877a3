import { describe, expect, it } from "vitest";
import { parseForm } from "~/components/forms/parse-form";
import { loginSchema } from "./contract";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the login contract", () => {
  it("is a member sign-in when no kind is sent (the spec's API sends none)", () => {
    expect(loginSchema.parse({ username: " aha1 ", password: "010101" })).toEqual({ kind: "member", username: "aha1", password: "010101" });
  });

  it("names each kind's own fields in its messages", () => {
    const errors = (fields: Record<string, string>) => {
      const submission = parseForm(form(fields), loginSchema);
      return "error" in submission ? submission.error : undefined;
    };
    expect(errors({ kind: "member", username: " ", password: "" })).toEqual({
      username: ["Certificate number is required"],
      password: ["Birthdate is required"],
    });
    expect(errors({ kind: "staff", username: "", password: "" })).toEqual({
      username: ["Username is required"],
      password: ["Password is required"],
    });
    expect(errors({ username: "AHA1\n", password: "010101" })).toEqual({
      username: ["Certificate number must be a single line without control characters"],
    });
  });

  it("refuses an unknown kind", () => {
    expect(loginSchema.safeParse({ kind: "root", username: "a", password: "b" }).success).toBe(false);
  });

  it("a posted form never sends the password back", () => {
    const reply = parseForm(form({ kind: "member", username: "", password: "010101" }), loginSchema).reply({ hideFields: ["password"] });
    expect(reply.initialValue).not.toHaveProperty("password");
    expect(JSON.stringify(reply)).not.toContain("010101");
  });
});
