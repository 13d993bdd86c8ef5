/**
 * The account forms' rules as zod schemas with the spec's messages (client-portal.md §5). Shared by the
 * browser (hints before submit) and the server (the rules that count).
 */
import { z } from "zod";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { ACCOUNT_MESSAGES } from "./messages";
import { MAX_PASSWORD_LENGTH, passwordError } from "./password";

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { message: ACCOUNT_MESSAGES.invalidEmail })
  .email({ message: ACCOUNT_MESSAGES.invalidEmail });

const newPassword = z
  .string()
  .max(MAX_PASSWORD_LENGTH, { message: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long` })
  .superRefine((value, ctx) => {
    const error = passwordError(value);
    if (error) ctx.addIssue({ code: "custom", message: error });
  });

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const registerSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: ACCOUNT_MESSAGES.nameRequired })
      .max(100, { message: ACCOUNT_MESSAGES.nameTooLong })
      .refine(hasNoNul, { message: invalidCharacterMessage("Name") }),
    email,
    password: newPassword,
    confirmPassword: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });

export const loginSchema = z.object({
  email,
  password: z.string().min(1, { message: ACCOUNT_MESSAGES.passwordRequired }).max(MAX_PASSWORD_LENGTH),
  rememberMe: checkbox,
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200).refine(hasNoNul),
    password: newPassword,
    confirmPassword: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });

export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: ACCOUNT_MESSAGES.nameRequired })
    .max(100, { message: ACCOUNT_MESSAGES.nameTooLong })
    .refine(hasNoNul, { message: invalidCharacterMessage("Name") }),
  phone: z
    .string()
    .trim()
    .max(40, { message: ACCOUNT_MESSAGES.phoneTooLong })
    .regex(/^[0-9+()\-.\s]*$/, { message: ACCOUNT_MESSAGES.phoneInvalid }),
  company: z
    .string()
    .trim()
    .max(120, { message: ACCOUNT_MESSAGES.companyTooLong })
    .refine(hasNoNul, { message: invalidCharacterMessage("Company name") }),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string()
      .min(1, { message: ACCOUNT_MESSAGES.currentPasswordRequired })
      .max(MAX_PASSWORD_LENGTH),
    newPassword,
    confirmPassword: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.newPasswordsDoNotMatch,
    path: ["confirmPassword"],
  });

export type FieldErrors = Partial<Record<string, string>>;

/** The first message per field, as the forms show them. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** Reads a submitted form into a plain object of strings (files and repeated keys ignored). */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}
