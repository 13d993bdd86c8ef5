/**
 * The first lines `npm start` prints: where the site is, where its mail goes (and where to read it when
 * it is only captured), and how to make the first admin. A newcomer reads them in a terminal, so there
 * they are plain sentences; anywhere else (a service manager, a log collector, the tests) they are log
 * records like every other line, with the same sentence as the message (docs/decisions/0312).
 */
import { eq } from "drizzle-orm";
import pino, { type Logger } from "pino";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { user } from "~/db/schema";
import { sellerModeWords } from "~/features/tax/treatment";

export interface StartLine {
  level: "info" | "warn";
  /** What a person reads in the terminal. */
  text: string;
  /** The log record's message (the same sentence, but for the first line, which tools wait for). */
  msg: string;
  /** The log record's fields. */
  fields: Record<string, unknown>;
}

export const ADMIN_HINT = "No admin yet: npm run admin:create -- --email you@example.com";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether HOST listens on this machine only: a loopback address or name (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h);
}

/** The address the person who started the site uses: this machine's, unless PUBLIC_URL names another. */
export function siteAddress(config: Pick<Config, "publicUrl">, port: number): string {
  const publicUrl = new URL(config.publicUrl);
  return LOOPBACK_HOSTS.has(publicUrl.hostname) ? `http://localhost:${port}` : config.publicUrl;
}

/** The start lines for this configuration, the port actually listened on and whether an admin exists. */
export function startLines(input: {
  config: Pick<
    Config,
    "env" | "isProduction" | "publicUrl" | "mail" | "adminEmails" | "trustProxy" | "host" | "tax"
  >;
  port: number;
  hasAdmin: boolean;
}): StartLine[] {
  const { config, port, hasAdmin } = input;
  const local = `http://localhost:${port}`;
  const site = siteAddress(config, port);
  const lines: StartLine[] = [];
  const line = (level: StartLine["level"], text: string, fields: Record<string, unknown> = {}) =>
    lines.push({ level, text, msg: text, fields });

  lines.push({
    level: "info",
    text:
      site === local
        ? `Portico listening on ${local}`
        : `Portico listening on ${local} (public address ${site})`,
    msg: "Portico listening",
    fields: { port, url: local, publicUrl: config.publicUrl, mode: config.env },
  });

  const { smtpUrl, devInboxEnabled } = config.mail;
  const inbox = `${site}/dev/mail`;
  if (smtpUrl && devInboxEnabled) {
    // Never the URL itself: it may carry the relay's password.
    line("info", `Mail is sent through SMTP_URL; the outbox can be read at ${inbox}`, { inbox });
  } else if (smtpUrl) {
    line("info", "Mail is sent through SMTP_URL", { inbox: null });
  } else if (devInboxEnabled) {
    line("info", `No SMTP_URL: mail is captured, not sent; read it at ${inbox}`, { inbox });
  } else if (new URL(config.publicUrl).protocol === "https:") {
    line(
      "warn",
      "WARNING: no SMTP_URL, so no email leaves this machine (sign-up links, password resets): set SMTP_URL. " +
        "The captured mail is not shown at /dev/mail because PUBLIC_URL is https: DEV_MAIL_ENABLED=true would show it to anyone",
      { inbox: null },
    );
  } else {
    line(
      "warn",
      "No SMTP_URL: mail is captured, not sent, and not shown (DEV_MAIL_ENABLED=false): set SMTP_URL to send it",
      { inbox: null },
    );
  }
  // In production an open inbox is readable by everyone who can reach the site: say so every start.
  if (devInboxEnabled && config.isProduction) {
    line(
      "warn",
      `Anyone who can reach this site can read every email at ${inbox}, password-reset links included: ` +
        "set SMTP_URL before the site faces the public (docs/deploy.md)",
      { inbox },
    );
  }

  // With TRUST_PROXY, the client's address is read from X-Forwarded-For, which anyone who reaches the
  // port without the proxy can write (rate limits, sign-in records, GeoIP): only the proxy should reach
  // it (ADR 0904).
  if (config.trustProxy !== false && !isLoopbackHost(config.host)) {
    line(
      "warn",
      `WARNING: TRUST_PROXY is set but HOST=${config.host} also takes connections from other machines, ` +
        "which can send any X-Forwarded-For: listen on HOST=127.0.0.1 behind a proxy on this machine, or " +
        "let only the proxy reach the port (docs/deploy.md)",
      { host: config.host },
    );
  }

  // An EU seller's VAT mode (issue 40): which treatment its invoices get. The flat rate of a seller
  // outside the EU is what it always was, and is not repeated.
  if (config.tax.mode.kind !== "flat")
    line("info", sellerModeWords(config.tax.mode), { taxMode: config.tax.mode.kind });

  if (!hasAdmin) {
    const text =
      config.adminEmails.length > 0
        ? `${ADMIN_HINT} (or register and verify an address listed in ADMIN_EMAILS)`
        : ADMIN_HINT;
    line("info", text);
  }
  return lines;
}

/** Whether any account is an admin: one indexed-size query at start. */
export async function adminExists(db: Database): Promise<boolean> {
  const rows = await db.select({ id: user.id }).from(user).where(eq(user.role, "admin")).limit(1);
  return rows.length > 0;
}

/**
 * Writes the start lines: plain sentences when standard output is a terminal (a person runs `npm start`),
 * log records otherwise, so that a collector's stream stays one JSON object per line. The sentences go
 * through the logger's own stream, after the lines it still holds (it retries a busy terminal later).
 */
export function printStartLines(
  lines: StartLine[],
  logger: Logger,
  terminal = Boolean(process.stdout.isTTY),
): void {
  if (!terminal) {
    for (const l of lines) logger[l.level](l.fields, l.msg);
    return;
  }
  const stream = (logger as unknown as Record<symbol, { write(text: string): unknown }>)[
    pino.symbols.streamSym
  ];
  stream!.write(`${lines.map((l) => l.text).join("\n")}\n`);
}
