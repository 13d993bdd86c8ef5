import { describe, expect, it } from "vitest";
import { PHONE_MAX_LENGTH, phoneProblem } from "./phone";

describe("phoneProblem", () => {
  it.each([
    "555 0100 ext 12",
    "+44 (0)20 7946 0958",
    "(555) 010-0100",
    "555.010.0100",
    "555-0100",
    "+1-555-010-0100 x123",
    "+1 (555) 010-0100 extension 42",
    "020 7946 0958 ext. 7",
    "555 0100 Ext: 12",
    "555 0100 #12",
    "555 0100x12",
    "0044 20 7946 0958",
    "(+44) 20 7946 0958",
    "+61 2 9876 5432",
    "  +1 555 0100  ",
    "",
  ])("accepts %j", (phone) => {
    expect(phoneProblem(phone)).toBeNull();
  });

  it.each([
    "call me",
    "555 0100 ask for Bob",
    "555 0100 ext",
    "ext 12",
    "x",
    "555 0100 ext 1234567",
    "555-CALL-NOW",
    "12345",
    "+1 2",
    "(0) 1",
    "++44 20 7946 0958",
    "44+ 20 7946 0958",
    "+44 +20 7946 0958",
    "(555 010 0100",
    "555) 010 (0100",
    "((555)) 0100",
    "() 555 0100",
    "-555 0100",
    "555 0100 -",
    "------------",
    "555\u00000100",
    "555_0100_12",
    "٥٥٥ ٠١٠٠",
  ])("refuses %j as not a phone number", (phone) => {
    expect(phoneProblem(phone)).toBe("invalid");
  });

  it("says too long for more digits than any number has, or more characters than the field holds", () => {
    expect(phoneProblem("+1 555 010 0100 555 010 0100")).toBe("tooLong");
    expect(phoneProblem(`555 0100${" ".repeat(PHONE_MAX_LENGTH)}12`)).toBe("tooLong");
  });
});
