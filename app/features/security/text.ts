/**
 * Text that can be stored: PostgreSQL refuses a NUL character in text ("invalid byte sequence"), so a
 * field holding one is a field error (400), never a failed insert (500). Used by the forms' zod schemas.
 */
export function hasNoNul(value: string): boolean {
  return !value.includes("\u0000");
}

/** The message for a field with a character it may not hold, in the style of its form's messages. */
export function invalidCharacterMessage(label: string, period = false): string {
  return `${label} contains a character that is not allowed${period ? "." : ""}`;
}
