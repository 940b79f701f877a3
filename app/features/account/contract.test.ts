import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, contactDetailsSchema } from "./contract";

const phone = (value: string) => contactDetailsSchema.safeParse({ phone: value });

describe("the account's phone number", () => {
  it("is kept as the public forms keep it: 10 digits as (XXX) XXX-XXXX", () => {
    for (const typed of ["2035550100", "203-555-0100", "203.555.0100", " (203) 555 0100 "]) {
      expect(phone(typed).data?.phone, typed).toBe("(203) 555-0100");
    }
  });

  it("keeps any other length of number as typed, trimmed; blank is none", () => {
    expect(phone(" +1 203 555 0100 ").data?.phone).toBe("+1 203 555 0100");
    expect(phone("  ").data?.phone).toBeNull();
    expect(phone("12").error?.issues[0]?.message).toBe(ACCOUNT_MESSAGES.phone);
  });
});
