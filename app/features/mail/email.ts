/** A rendered email, ready for the outbox: what every template produces. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

/** First retry after `baseMs`, then doubling, capped at six hours. `attempt` counts from 1. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  const SIX_HOURS = 6 * 60 * 60 * 1000;
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), SIX_HOURS);
}

/**
 * An address header's value as data, never as text: nodemailer writes the name as an encoded display
 * name, so a name like `Alice, boss@victim.example,` stays one name and can never add a recipient.
 */
export interface MailAddress {
  name: string;
  address: string;
}

/**
 * A recipient, written `"Name" <address>` in its header (issue 37: a To: without angle brackets is
 * scored as spam). Without a name (an address typed into a public form, whose owner we do not name
 * from what a stranger typed), the address's local part stands in. Line breaks and other control
 * characters in a name become spaces.
 */
export function mailbox(address: string, name?: string | null): MailAddress {
  const clean = (name ?? "").replace(/[\p{Cc}\s]+/gu, " ").trim();
  const at = address.lastIndexOf("@");
  return { name: clean || (at > 0 ? address.slice(0, at) : address), address };
}

/** How a structured address is kept in a text column of the outbox (JSON). */
export function storeAddress(value: MailAddress): string {
  return JSON.stringify({ name: value.name, address: value.address });
}

/**
 * Reads an address stored by `storeAddress`. A bare address (rows written before structured addresses)
 * is kept as an address only; anything unreadable gives null, so it is left out rather than parsed.
 */
export function readStoredAddress(stored: string | null): MailAddress | null {
  if (!stored) return null;
  if (stored.startsWith("{")) {
    try {
      const value = JSON.parse(stored) as Partial<MailAddress>;
      if (typeof value.address === "string" && typeof value.name === "string") {
        return { name: value.name, address: value.address };
      }
    } catch {
      return null;
    }
    return null;
  }
  // Legacy rows held `Name <address>`: keep only the part between the last angle brackets.
  const bracketed = /<([^<>\s,;]+@[^<>\s,;]+)>\s*$/.exec(stored);
  if (bracketed) return { name: "", address: bracketed[1]! };
  return /^[^\s,;<>"]+@[^\s,;<>"]+$/.test(stored) ? { name: "", address: stored } : null;
}

/** How an address is shown to a person (the /dev/mail viewer). */
export function formatAddress(value: MailAddress): string {
  return value.name ? `"${value.name.replace(/["\\]/g, "")}" <${value.address}>` : value.address;
}

/**
 * The Message-ID of an outbox email, derived from its row id: every attempt to send one row carries the
 * same id, so a resend after a crash (the relay accepted, the worker died before recording it) is at
 * worst a duplicate that mail clients fold into the first.
 */
export function outboxMessageId(outboxId: string, fromAddress: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(fromAddress)?.[1] ?? "portico.invalid";
  return `<outbox.${outboxId}@${domain}>`;
}
