/**
 * Mech, the site's scripted chat assistant (public-site.md §2 "Chat assistant", §4, §9): keyword
 * replies with the spec's canned texts, no server call. Pure: no React, no timers, no storage.
 * The canned prices differ from the real catalogue prices on purpose; the spec states both as given.
 */

export const MECH_NAME = "Mech";
/** Chat auto-open after a first visit, and the welcome message after opening (§9). */
export const CHAT_AUTO_OPEN_MS = 3000;
export const WELCOME_DELAY_MS = 1000;
/** Each reply waits 1-2 seconds behind a typing indicator (§9). */
export const REPLY_DELAY_MIN_MS = 1000;
export const REPLY_DELAY_MAX_MS = 2000;
/** The local flag recording that the visitor has seen the chat (§3). */
export const CHAT_SEEN_KEY = "portico.chat.seen";
/** A visitor who typed within this long is still busy with a form: Mech waits. */
export const CHAT_TYPING_QUIET_MS = 4000;
/** While Mech waits for a busy visitor, it looks again this often. */
export const CHAT_RECHECK_MS = 1000;

/** What is known about the element that has focus. */
export interface FocusedElement {
  tagName: string;
  type?: string | null;
  isContentEditable?: boolean;
}

const NON_TYPING_INPUTS = new Set([
  "button",
  "submit",
  "reset",
  "checkbox",
  "radio",
  "image",
  "file",
  "range",
  "color",
  "hidden",
]);

/** Whether the focused element takes typing (a text input, a textarea, a select, editable content). */
export function takesTyping(el: FocusedElement | null | undefined): boolean {
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NON_TYPING_INPUTS.has((el.type ?? "text").toLowerCase());
}

/**
 * Whether the automatic opening waits: never over a form the visitor is using, i.e. while a field
 * has focus or something was typed a moment ago.
 */
export function holdAutoOpen(input: {
  focused: FocusedElement | null;
  msSinceTyping: number | null;
}): boolean {
  if (takesTyping(input.focused)) return true;
  return input.msSinceTyping !== null && input.msSinceTyping < CHAT_TYPING_QUIET_MS;
}

export interface ChatMessage {
  id: string;
  text: string;
  sender: "user" | "bot";
  /** ISO timestamp. */
  timestamp: string;
}

export const WELCOME_MESSAGE =
  "Hi! I'm Mech, your IT services assistant. Ask me about email migration, email security, SSL, cloud suites, data migration, hosting support or prices.";

export const CANNED = {
  greeting:
    "Hello! How can I help you today? I can tell you about our services, prices and turnaround times.",
  emailMigration:
    "Email migration packages: Basic (10 accounts) $299, Standard (50 accounts) $799, Enterprise (unlimited) $1499. Basic migrations of up to 10 accounts take 24-48 hours; larger ones take 3-5 business days, with zero downtime.",
  ssl: "SSL certificates: single domain $149, multi-domain $299, wildcard $499. Installation takes 2-4 hours with 5-10 minutes of downtime at most.",
  emailSecurity:
    "Email security (SPF, DKIM and DMARC setup, blacklist checks) costs $199-$799 depending on the number of domains and senders.",
  hosting:
    "Hosting and control panel support (cPanel, Plesk) costs $149-$399. Emergency response takes about 15 minutes.",
  cloud: "Cloud suite management for Google Workspace and Microsoft 365 starts from $399.",
  dataMigration: "Cloud data migration (Teams, SharePoint, OneDrive, Google Drive) starts from $499.",
  pricing:
    "Our services start at $149. Email migration from $299, SSL from $149, email security $199-$799, hosting support $149-$399, cloud from $399 and data migration from $499. For an exact figure, ask for a free quote.",
  timing:
    "Most projects are delivered in 24-48h, we respond within 24 hours, and support is available 24/7 for existing clients.",
  contact:
    "You can reach a person through the contact form on the home page, by email or on WhatsApp. We respond within 24 hours.",
  thanks: "You're welcome! Anything else I can help with?",
  fallback:
    "I'm not sure I understood. I can help with email migration, email security, SSL, cloud suites, data migration, hosting support and pricing. You can also use the contact form and a person will reply within 24 hours.",
} as const;

type Topic = keyof typeof CANNED;

/** Ordered: the first rule whose pattern matches wins, so specific topics precede general ones. */
const RULES: ReadonlyArray<{ topic: Topic; pattern: RegExp }> = [
  { topic: "dataMigration", pattern: /\b(data migration|sharepoint|onedrive|google drive|teams|files?)\b/ },
  {
    topic: "emailSecurity",
    pattern: /\b(spf|dkim|dmarc|deliverability|spam|blacklist(ed)?|email security|spoof\w*)\b/,
  },
  { topic: "emailMigration", pattern: /\b(email migration|migrat\w*|mailbox(es)?|move (my )?email)\b/ },
  { topic: "ssl", pattern: /\b(ssl|https|certificates?|tls|padlock)\b/ },
  { topic: "hosting", pattern: /\b(hosting|cpanel|plesk|control panel|server)\b/ },
  { topic: "cloud", pattern: /\b(cloud|workspace|microsoft 365|office 365|m365|g ?suite)\b/ },
  { topic: "pricing", pattern: /\b(price|prices|pricing|cost|costs|how much|quote|rates?|fees?)\b/ },
  { topic: "timing", pattern: /\b(how long|turnaround|time|when|fast|quick\w*|24\/7|support hours)\b/ },
  { topic: "contact", pattern: /\b(contact|human|person|talk|call|phone|whatsapp|email you|reach)\b/ },
  { topic: "thanks", pattern: /\b(thanks?|thank you|cheers)\b/ },
  { topic: "greeting", pattern: /\b(hi|hello|hey|good (morning|afternoon|evening))\b/ },
];

/** Mech's reply to a visitor's message, by keyword; the fallback when nothing matches. */
export function mechReply(text: string): string {
  const normalized = text.toLowerCase().replace(/\s+/g, " ").trim();
  const rule = RULES.find((r) => r.pattern.test(normalized));
  return CANNED[rule?.topic ?? "fallback"];
}

/** A message may be sent only when it has non-blank text (§5). */
export function isSendable(text: string): boolean {
  return text.trim().length > 0;
}

/** The reply delay for a random number in [0, 1): 1000-2000 ms. */
export function replyDelayMs(random: number = Math.random()): number {
  const r = Math.min(Math.max(random, 0), 1);
  return Math.round(REPLY_DELAY_MIN_MS + r * (REPLY_DELAY_MAX_MS - REPLY_DELAY_MIN_MS));
}
