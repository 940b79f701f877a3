import { describe, expect, it } from "vitest";
import { CONFIRMATION_MESSAGES, decideConfirmation } from "./confirmation";

const decide = (query: string) => decideConfirmation(new URLSearchParams(query));

describe("decideConfirmation", () => {
  it("treats a link with neither token nor hash as invalid", () => {
    expect(decide("")).toEqual({ status: "error", kind: "invalidLink", message: CONFIRMATION_MESSAGES.invalidLink });
    expect(decide("type=signup&refresh_token=r")).toMatchObject({ status: "error", kind: "invalidLink" });
    expect(decide("type=recovery")).toMatchObject({ status: "error", kind: "invalidLink" });
    expect(decide("access_token=%20%20&token_hash=")).toMatchObject({ status: "error", kind: "invalidLink" });
  });

  it("confirms a signup carrying both tokens", () => {
    expect(decide("type=signup&access_token=a&refresh_token=r")).toEqual({
      status: "success",
      kind: "signup",
      message: "Your email has been confirmed successfully! You can now log in to your account.",
    });
  });

  it("falls back to the generic success for a signup without its refresh token", () => {
    expect(decide("type=signup&access_token=a")).toMatchObject({ status: "success", kind: "generic" });
    expect(decide("type=signup&token_hash=h")).toMatchObject({ status: "success", kind: "generic" });
  });

  it("confirms an email change", () => {
    expect(decide("type=email_change&token_hash=h")).toMatchObject({
      status: "success",
      message: "Your email change has been confirmed successfully!",
    });
  });

  it("confirms a password recovery", () => {
    expect(decide("type=recovery&access_token=a")).toMatchObject({
      status: "success",
      message: "Password recovery confirmed. You can now set a new password.",
    });
  });

  it("gives the generic success to any other link with a token", () => {
    expect(decide("token_hash=h")).toMatchObject({ status: "success", message: "Email confirmation successful!" });
    expect(decide("type=magiclink&access_token=a")).toMatchObject({ status: "success", kind: "generic" });
  });

  it("reports an unexpected failure while reading the link as an error", () => {
    const broken = {
      get(): string | null {
        throw new Error("unreadable");
      },
    };
    expect(decideConfirmation(broken)).toEqual({
      status: "error",
      kind: "unexpected",
      message: "An error occurred during email confirmation. Please try again or contact support.",
    });
  });
});
