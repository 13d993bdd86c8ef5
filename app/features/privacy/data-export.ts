/**
 * The pure parts of "Download my data" (issue 25): how often it may be asked, the zip's name and the
 * README that explains its files.
 */

/** Exports a client may ask for in a day (the owner's exports for that client count apart). */
export const DATA_EXPORTS_PER_DAY = 3;
export const DATA_EXPORT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The message of the 429 when the day's exports are used up. */
export const DATA_EXPORT_LIMIT_MESSAGE = `You can download your data ${DATA_EXPORTS_PER_DAY} times a day. Please try again tomorrow.`;

/** The rate limit's key: one counter per client for the client's own exports, one for the owner's. */
export function dataExportLimitKey(clientId: string, by: "client" | "owner"): string {
  return `data-export:${by}:${clientId}`;
}

/** The zip's file name: `my-data-2026-11-24.zip` for the client, with the client id for the owner. */
export function dataExportFileName(now: Date, by: "client" | "owner", clientId: string): string {
  const day = now.toISOString().slice(0, 10);
  const safeId = clientId.replace(/[^A-Za-z0-9_-]+/g, "_");
  return by === "client" ? `my-data-${day}.zip` : `client-data-${safeId}-${day}.zip`;
}

/** Every file the export may hold, with what it is (the README lists them). */
export const DATA_EXPORT_FILES: ReadonlyArray<[name: string, what: string]> = [
  ["profile.json", "Your account (name, email, sign-in settings) and your client record (billing details)."],
  [
    "preferences.json",
    "Your saved preferences (currency, notification emails) and the devices you signed in from.",
  ],
  [
    "consents.json",
    "Your newsletter subscription, your choice about marketing emails, and the quotes you accepted with their terms and signature.",
  ],
  ["orders.json", "Your orders, with the brief you gave for each."],
  ["invoices.json", "Your invoices, as issued (the billing details printed on each)."],
  ["credit-notes.json", "The credit notes of your refunds (only if there are any)."],
  ["quotes.json", "The quotes sent to you (only if there are any)."],
  ["quote-requests.json", "Your requests for a quote (only if there are any)."],
  [
    "care-plans.json",
    "Your care plans: cycle, status, the card on file (brand and last four digits) and each period with its invoice (only if there are any).",
  ],
  [
    "domains.json",
    "The domains you watch, their DKIM selectors and expiry you typed, and their alerts (only if there are any).",
  ],
  [
    "messages.json",
    "The messages on your orders, yours and ours, with the names, types and sizes of their attachments (not the files).",
  ],
  [
    "contact-messages.json",
    "What was sent through the contact form from your email address (only if there is any).",
  ],
  ["notifications.json", "The notifications shown in your portal."],
  [
    "sessions.json",
    "Your current sign-in sessions: when they started and end, and from which address and browser.",
  ],
  ["invoices/", "Every invoice as a PDF file."],
];

/** The README at the top of the zip. */
export function dataExportReadme(input: {
  businessName: string;
  email: string;
  requestedBy: "client" | "owner";
  createdAt: Date;
}): string {
  const lines = [
    `Your data at ${input.businessName}`,
    "",
    `This archive holds the data kept about the account ${input.email}, as it was on ${input.createdAt.toISOString()}.`,
    input.requestedBy === "client"
      ? "You asked for it from the Privacy tab of your profile."
      : "It was prepared by the owner at your request.",
    "",
    "Files:",
    ...DATA_EXPORT_FILES.map(([name, what]) => `  ${name.padEnd(22)}${what}`),
    "",
    "The JSON files are UTF-8. Dates and times are ISO 8601 in UTC. Amounts are in the currency named",
    "next to them (USD amounts end in 'Usd'). Your timezone and language choices are in profile.json",
    "(client.timeZone and client.language; null until you first save your profile).",
    "",
  ];
  return lines.join("\n");
}
