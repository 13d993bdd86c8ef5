/**
 * A phone number as people write it: "+44 (0)20 7946 0958", "(555) 010-0100", "555.010.0100",
 * "555 0100 ext 12". The spec says only that the profile's phone is optional and editable, so this is a
 * check of the written form, not of whether the number exists: digits with the usual separators, one
 * leading "+", balanced parentheses and an optional extension. Letters other than the extension's
 * marker are refused. Pure: shared by the browser's hints and the server.
 */

/** Characters in the field (after trimming). */
export const PHONE_MAX_LENGTH = 40;
/**
 * Digits outside the extension. E.164 numbers have at most 15; a written "00" international prefix or
 * a "(0)" trunk digit adds up to two more. Fewer than 6 is not a number anyone can dial from outside.
 */
export const PHONE_DIGITS = { min: 6, max: 17 } as const;
/** Digits of an extension ("ext 12", "x1234"). */
const EXTENSION_MAX_DIGITS = 6;

/** The number, then an extension marker (ext, ext., extension, x or #) and its digits at the end. */
const WITH_EXTENSION = new RegExp(
  `^(.*?)\\s*(?:ext\\.?|extension|x|#)\\s*[.:]?\\s*(\\d{1,${EXTENSION_MAX_DIGITS}})$`,
  "i",
);
/** What the number itself may hold: ASCII digits, spaces, dots, dashes, parentheses and "+". */
const NUMBER_CHARACTERS = /^[0-9 .()+-]+$/;

export type PhoneProblem = "invalid" | "tooLong";

/** What is wrong with a typed phone number, or null when it is fine (an empty field is fine: optional). */
export function phoneProblem(input: string): PhoneProblem | null {
  const value = input.trim();
  if (value === "") return null;
  if (value.length > PHONE_MAX_LENGTH) return "tooLong";
  const number = (WITH_EXTENSION.exec(value)?.[1] ?? value).trim();
  if (!NUMBER_CHARACTERS.test(number)) return "invalid";
  // One "+", before any digit, at the start or just inside an opening parenthesis: "+44", "(+44)".
  if (number.includes("+") && !/^\(?\+[^+]*$/.test(number)) return "invalid";
  if (!balancedParentheses(number)) return "invalid";
  // Starts like a number and ends on a digit or a closing parenthesis, not on a separator.
  if (!/^[(+0-9]/.test(number) || !/[0-9)]$/.test(number)) return "invalid";
  const digits = number.replace(/\D/g, "").length;
  if (digits < PHONE_DIGITS.min) return "invalid";
  if (digits > PHONE_DIGITS.max) return "tooLong";
  return null;
}

/** Parentheses in pairs, not nested, each around at least one digit: "(0)", "(555)". */
function balancedParentheses(number: string): boolean {
  let open = -1;
  for (let i = 0; i < number.length; i++) {
    const ch = number[i];
    if (ch === "(") {
      if (open >= 0) return false;
      open = i;
    } else if (ch === ")") {
      if (open < 0 || !/\d/.test(number.slice(open + 1, i))) return false;
      open = -1;
    }
  }
  return open < 0;
}
