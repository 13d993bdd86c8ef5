import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/ui/form";
import {
  addressOnOneLine,
  changePasswordSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
} from "./forms";
import { ACCOUNT_MESSAGES } from "./messages";
import { PASSWORD_MESSAGES } from "./password";

const errorsOf = (r: { success: boolean; error?: Parameters<typeof fieldErrors>[0] }) =>
  r.success ? {} : fieldErrors(r.error!);

describe("registerSchema", () => {
  const valid = {
    name: "Ada",
    email: "Ada@Example.com ",
    password: "Str0ng!pass",
    confirmPassword: "Str0ng!pass",
  };

  it("accepts a valid form and normalises the email", () => {
    const r = registerSchema.safeParse(valid);
    expect(r.success && r.data.email).toBe("ada@example.com");
  });

  it("gives the spec's message for each field", () => {
    expect(errorsOf(registerSchema.safeParse({ ...valid, name: "  " }))).toEqual({
      name: ACCOUNT_MESSAGES.nameRequired,
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, email: "ada@" }))).toEqual({
      email: ACCOUNT_MESSAGES.invalidEmail,
    });
    expect(
      errorsOf(registerSchema.safeParse({ ...valid, password: "short", confirmPassword: "short" })),
    ).toEqual({
      password: PASSWORD_MESSAGES.length,
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, confirmPassword: "Str0ng!pasS" }))).toEqual({
      confirmPassword: ACCOUNT_MESSAGES.passwordsDoNotMatch,
    });
  });
});

describe("loginSchema", () => {
  it("requires a valid email and a password; remember-me is a checkbox", () => {
    expect(errorsOf(loginSchema.safeParse({ email: "x", password: "" }))).toEqual({
      email: ACCOUNT_MESSAGES.invalidEmail,
      password: ACCOUNT_MESSAGES.passwordRequired,
    });
    const r = loginSchema.safeParse({ email: "a@b.co", password: "p", rememberMe: "on" });
    expect(r.success && r.data.rememberMe).toBe(true);
    const r2 = loginSchema.safeParse({ email: "a@b.co", password: "p" });
    expect(r2.success && r2.data.rememberMe).toBe(false);
  });
});

describe("password reset and change", () => {
  it("apply the same password rules", () => {
    expect(
      errorsOf(resetPasswordSchema.safeParse({ token: "t", password: "abc", confirmPassword: "abc" })),
    ).toEqual({
      password: PASSWORD_MESSAGES.length,
    });
    expect(
      errorsOf(
        changePasswordSchema.safeParse({
          currentPassword: "x",
          newPassword: "Abcdefgh1",
          confirmPassword: "Abcdefgh1",
        }),
      ),
    ).toEqual({ newPassword: PASSWORD_MESSAGES.special });
  });

  it("say 'New passwords do not match' on the profile form", () => {
    expect(
      errorsOf(
        changePasswordSchema.safeParse({
          currentPassword: "x",
          newPassword: "Str0ng!pass",
          confirmPassword: "nope",
        }),
      ),
    ).toEqual({ confirmPassword: ACCOUNT_MESSAGES.newPasswordsDoNotMatch });
  });
});

describe("profileSchema", () => {
  it("takes the billing details trimmed, and refuses long ones with their own messages", () => {
    const base = { name: "Ada", phone: "", company: "" };
    const r = profileSchema.safeParse({
      ...base,
      address: " 1 Analytical Way, London ",
      country: "United Kingdom ",
      taxId: " GB123456789",
    });
    expect(r.success && r.data).toEqual({
      ...base,
      address: "1 Analytical Way, London",
      country: "United Kingdom",
      taxId: "GB123456789",
    });
    expect(
      errorsOf(
        profileSchema.safeParse({
          ...base,
          address: "a".repeat(201),
          country: "c".repeat(57),
          taxId: "t".repeat(41),
        }),
      ),
    ).toEqual({
      address: ACCOUNT_MESSAGES.addressTooLong,
      country: ACCOUNT_MESSAGES.countryTooLong,
      taxId: ACCOUNT_MESSAGES.taxIdTooLong,
    });
    expect(profileSchema.safeParse({ ...base, country: "c".repeat(56), taxId: "x\u0000" }).success).toBe(
      false,
    );
  });

  it("keeps the billing address on one line: the textarea's line breaks become commas", () => {
    const base = { name: "Ada", phone: "", company: "" };
    const r = profileSchema.safeParse({ ...base, address: " 1 Analytical Way,\r\n\n  London  \nEC1 " });
    expect(r.success && r.data.address).toBe("1 Analytical Way, London, EC1");
    expect(addressOnOneLine("Flat 2\r42 Baker Street")).toBe("Flat 2, 42 Baker Street");
    expect(addressOnOneLine(" \n ")).toBe("");
    // The limit is on what is stored.
    expect(
      errorsOf(profileSchema.safeParse({ ...base, address: `${"a".repeat(100)}\n${"b".repeat(99)}` })),
    ).toEqual({
      address: ACCOUNT_MESSAGES.addressTooLong,
    });
  });

  it("trims, allows empty phone and company, refuses junk phone numbers", () => {
    const r = profileSchema.safeParse({ name: " Ada ", phone: "", company: "" });
    expect(r.success && r.data).toEqual({ name: "Ada", phone: "", company: "" });
    expect(errorsOf(profileSchema.safeParse({ name: "Ada", phone: "call me", company: "" }))).toEqual({
      phone: "Please enter a valid phone number",
    });
  });

  it("accepts phone numbers as people write them, with an extension, and keeps them as typed", () => {
    for (const phone of ["555 0100 ext 12", "+44 (0)20 7946 0958", "(555) 010-0100 x7", "555.010.0100"]) {
      const r = profileSchema.safeParse({ name: "Ada", phone: ` ${phone} `, company: "" });
      expect(r.success && r.data.phone, phone).toBe(phone);
    }
  });

  it("refuses garbage, too few digits and too many", () => {
    const phoneError = (phone: string) =>
      errorsOf(profileSchema.safeParse({ name: "Ada", phone, company: "" })).phone;
    expect(phoneError("12345")).toBe(ACCOUNT_MESSAGES.phoneInvalid);
    expect(phoneError("+++ ((( )))")).toBe(ACCOUNT_MESSAGES.phoneInvalid);
    expect(phoneError("555 0100 ask for Bob")).toBe(ACCOUNT_MESSAGES.phoneInvalid);
    expect(phoneError("+1 555 010 0100 555 010 0100")).toBe(ACCOUNT_MESSAGES.phoneTooLong);
    expect(phoneError("5".repeat(41))).toBe(ACCOUNT_MESSAGES.phoneTooLong);
  });
});

describe("text the database cannot store", () => {
  it("refuses a NUL character in names and company with a field error", () => {
    const register = {
      name: "A\u0000da",
      email: "ada@example.com",
      password: "Str0ng!pass",
      confirmPassword: "Str0ng!pass",
    };
    expect(errorsOf(registerSchema.safeParse(register))).toEqual({
      name: "Name contains a character that is not allowed",
    });
    expect(errorsOf(profileSchema.safeParse({ name: "Ada", phone: "", company: "Acme\u0000" }))).toEqual({
      company: "Company name contains a character that is not allowed",
    });
    expect(
      resetPasswordSchema.safeParse({
        token: "t\u0000",
        password: "Str0ng!pass",
        confirmPassword: "Str0ng!pass",
      }).success,
    ).toBe(false);
  });
});
