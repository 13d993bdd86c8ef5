/**
 * The honeypot of the public forms (docs/decisions/0302-honeypot-on-public-forms.md): a field people
 * never see and bots fill in. Shared by the contact form and the newsletter box.
 */
export const HONEYPOT_FIELD = "website";

/** Whether a submission filled the trap, i.e. came from a bot (which is then told all went well). */
export function isHoneypotFilled(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}
