/**
 * All settings of the process, read from the environment once at start and checked with zod.
 * A bad value stops the process with one line naming the variable (see `ConfigError`).
 * Every variable here is listed, with its default, in `.env.example`.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { BusinessIdentity } from "~/features/business/business";
import {
  DEFAULT_LIMITS,
  type DomainCheckSettings,
  domainCheckSafetyError,
  parseDnsServers,
  parsePortOverrides,
} from "~/features/domain-checks/settings";
import { sellerTaxMode } from "~/features/tax/seller-mode";
import type { SellerTaxMode } from "~/features/tax/treatment";

/** A setting parsed by `parse`, which answers the value or a message prefixed with "!". */
function parsedSetting<T>(parse: (raw: string) => T | `!${string}`) {
  return z.string().transform((v, ctx) => {
    const parsed = parse(v);
    if (typeof parsed === "string" && parsed.startsWith("!")) {
      ctx.addIssue({ code: "custom", message: parsed.slice(1) });
      return z.NEVER;
    }
    return parsed as T;
  });
}

const boolean = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const url = (protocols: string[]) =>
  z
    .string()
    .url({ message: "must be a URL" })
    .refine((v) => protocols.includes(new URL(v).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(" or ")}`,
    });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ message: "must be a port number" })
    .int({ message: "must be a port number" })
    .min(0, { message: "must be a port number" })
    .max(65535, { message: "must be a port number" })
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  // Unset: this machine on the port the site listens on (loadConfig), so `PORT=4000 npm start` links to 4000.
  PUBLIC_URL: url(["http:", "https:"]).optional(),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  PGLITE_DIR: z.string().min(1).default("./data/pglite"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  TRUST_PROXY: z
    .string()
    .transform((v, ctx): TrustProxy => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === "string") {
        ctx.addIssue({ code: "custom", message: parsed.slice(1) });
        return z.NEVER;
      }
      return parsed;
    })
    .default(false),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int({ message: "must be a number of milliseconds" })
    .min(100, { message: "must be at least 100" })
    .max(120_000, { message: "must be at most 120000" })
    .default(5000),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int({ message: "must be a number of milliseconds" })
    .min(100, { message: "must be at least 100" })
    .max(600_000, { message: "must be at most 600000" })
    .default(10_000),
  BUSINESS_NAME: z.string().min(1).default("Portico IT Services"),
  BUSINESS_LEGAL_NAME: z.string().min(1).default("Portico IT Services"),
  BUSINESS_EMAIL: z
    .string()
    .email({ message: "must be an email address" })
    .default("support@portico.example"),
  BUSINESS_PHONE: z.string().min(1).default("+1 (555) 010-2030"),
  BUSINESS_WHATSAPP: z
    .string()
    .regex(/^\d{7,15}$/, { message: "must be digits only, with country code (e.g. 15550102030)" })
    .default("15550102030"),
  BUSINESS_TAX_ID: z.string().trim().min(1).max(64, { message: "must be at most 64 characters" }).optional(),
  BUSINESS_ADDRESS: z.string().min(1).default("100 Main Street, Suite 200, New York, NY 10001, USA"),
  BUSINESS_HOURS_WEEKDAYS: z.string().min(1).default("Mon-Fri: 9:00 AM - 6:00 PM EST"),
  BUSINESS_HOURS_SATURDAY: z.string().min(1).default("Sat: 10:00 AM - 4:00 PM EST"),
  BUSINESS_HOURS_SUNDAY: z.string().min(1).default("Sunday: Closed"),
  BUSINESS_HOURS_EMERGENCY: z.string().min(1).default("Emergency support 24/7 for existing clients"),
  SOCIAL_LINKEDIN: url(["https:"]).optional().default("https://www.linkedin.com/company/portico-it-services"),
  SOCIAL_TWITTER: url(["https:"]).optional().default("https://x.com/porticoit"),
  SOCIAL_FACEBOOK: url(["https:"]).optional(),
  SOCIAL_GITHUB: url(["https:"]).optional().default("https://github.com/portico-it"),
  EXCHANGE_RATES_URL: url(["http:", "https:"]).optional(),
  EXCHANGE_RATES_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int({ message: "must be a number of milliseconds" })
    .min(100, { message: "must be at least 100" })
    .max(30_000, { message: "must be at most 30000" })
    .default(3000),
  COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, { message: "must be an HTTP header name" })
    .transform((v) => v.toLowerCase())
    .optional(),
  GEOIP: boolean.default(true),
  SMTP_URL: url(["smtp:", "smtps:"]).optional(),
  MAIL_FROM: z.string().min(3).optional(),
  DEV_MAIL_ENABLED: boolean.optional(),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1, { message: "must be at least 1" }).max(50).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10, { message: "must be at least 10" }).default(30_000),
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(50, { message: "must be at least 50" }).default(5_000),
  MAIL_LEASE_MS: z.coerce.number().int().min(1000, { message: "must be at least 1000" }).default(60_000),
  CONTACT_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1, { message: "must be at least 1" }).default(5),
  QUOTE_REQUESTS_PER_HOUR: z.coerce.number().int().min(1, { message: "must be at least 1" }).default(30),
  ATTACHMENT_QUOTA_MB: z.coerce.number().int().min(1, { message: "must be at least 1" }).default(500),
  ADMIN_EMAILS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ message: "must be a comma-separated list of email addresses" })))
    .default([]),
  ADMIN_REQUIRE_2FA: boolean.default(false),
  PAYMENT_PROVIDER: z
    .enum(["sandbox", "stripe"], { message: "must be sandbox or stripe" })
    .default("sandbox"),
  SANDBOX_WEBHOOK_SECRET: z.string().min(16, { message: "must be at least 16 characters" }).optional(),
  METRICS_TOKEN: z.string().min(16, { message: "must be at least 16 characters" }).optional(),
  SANDBOX_WEBHOOK_URL: url(["http:", "https:"]).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, { message: "must be a Stripe secret key (sk_test_… or sk_live_…)" })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, { message: "must be a Stripe webhook signing secret (whsec_…)" })
    .optional(),
  STRIPE_API_URL: url(["http:", "https:"]).optional(),
  TAX_RATE_PERCENT: z.coerce
    .number({ message: "must be a number" })
    .min(0, { message: "must be between 0 and 100" })
    .max(100, { message: "must be between 0 and 100" })
    .default(0),
  // The seller's VAT (issue 40, ADR 0542): an EU country makes the EU rules apply; elsewhere the flat
  // TAX_RATE_PERCENT stays.
  BUSINESS_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { message: "must be a two-letter country code (ISO 3166-1), such as DE" })
    .optional(),
  VAT_RATE_PERCENT: z.coerce
    .number({ message: "must be a number" })
    .min(0, { message: "must be between 0 and 100" })
    .max(100, { message: "must be between 0 and 100" })
    .optional(),
  VAT_EXEMPT_REASON: z
    .string()
    .trim()
    .min(1)
    .max(300, { message: "must be at most 300 characters" })
    .optional(),
  BUSINESS_REGISTRATION_ID: z
    .string()
    .trim()
    .min(1)
    .max(64, { message: "must be at most 64 characters" })
    .optional(),
  BUSINESS_TAX_NUMBER: z
    .string()
    .trim()
    .min(1)
    .max(64, { message: "must be at most 64 characters" })
    .optional(),
  VIES_URL: url(["http:", "https:"]).default("https://ec.europa.eu/taxation_customs/vies/rest-api"),
  INVOICE_DUE_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int({ message: "must be a whole number of days" })
    .min(0, { message: "must be between 0 and 365" })
    .max(365, { message: "must be between 0 and 365" })
    .default(7),
  /** Days before a care plan's period starts that its renewal invoice is issued (ADR 0531). */
  RENEWAL_NOTICE_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int({ message: "must be a whole number of days" })
    .min(0, { message: "must be between 0 and 60" })
    .max(60, { message: "must be between 0 and 60" })
    .default(7),
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(50, { message: "must be at least 50" }).default(15_000),
  LIVE_SESSION_CHECK_MS: z.coerce.number().int().min(50, { message: "must be at least 50" }).default(60_000),
  OVERDUE_CHECK_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(50, { message: "must be at least 50" })
    .default(15 * 60_000),
  PAYMENT_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(50, { message: "must be at least 50" })
    .default(5 * 60_000),
  // How long a checkout stays pending before the sweep asks about it (the webhook's chance first).
  PAYMENT_SWEEP_PENDING_AFTER_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int({ message: "must be a number of milliseconds" })
    .min(0, { message: "must be at least 0" })
    .default(10 * 60_000),
  // Scheduled backups (README "Backups"): off while BACKUP_DIR is unset.
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_INTERVAL_HOURS: z.coerce
    .number({ message: "must be a number of hours" })
    .min(0.0003, { message: "must be at least 0.0003 (about a second)" })
    .max(24 * 366, { message: "must be at most 8784 (a year)" })
    .default(24),
  BACKUP_KEEP: z.coerce
    .number({ message: "must be a whole number of files" })
    .int({ message: "must be a whole number of files" })
    .min(1, { message: "must be at least 1" })
    .max(10_000, { message: "must be at most 10000" })
    .default(14),
  // How long invoices, credit notes and accepted quotes are kept after an account's deletion (tax law;
  // the privacy page says it). Issue 25, ADR 0520.
  RETENTION_YEARS: z.coerce
    .number({ message: "must be a whole number of years" })
    .int({ message: "must be a whole number of years" })
    .min(1, { message: "must be at least 1" })
    .max(100, { message: "must be at most 100" })
    .default(10),
  TEST_HOOKS: boolean.default(false),
  // The domain checker (issue 39, ADR 0540): the DNS servers it asks (unset: the system's), and two
  // settings for tests only, refused in production (domainCheckSafetyError).
  DNS_SERVERS: parsedSetting(parseDnsServers).optional(),
  DOMAIN_CHECK_ALLOW_LOOPBACK: boolean.default(false),
  DOMAIN_CHECK_CA_FILE: z.string().min(1).optional(),
  DOMAIN_CHECK_PORTS: parsedSetting(parsePortOverrides).optional(),
});

export type Env = z.infer<typeof envSchema>;

export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

function isAddressOrCidr(value: string): boolean {
  if (PROXY_NAMES.has(value)) return true;
  const [address, bits, extra] = value.split("/");
  if (extra !== undefined || !address) return false;
  const v4 = IPV4.test(address) && address.split(".").every((n) => Number(n) <= 255);
  const v6 = !v4 && address.includes(":") && /^[0-9a-fA-F:.]+$/.test(address);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (v4 ? 32 : 128);
}

/**
 * TRUST_PROXY: "false" (default), a hop count ("1": one proxy in front appends the client's address to
 * X-Forwarded-For), or a comma-separated list of proxy addresses, CIDRs and the names "loopback",
 * "linklocal", "uniquelocal". "true" is refused: it trusts every hop, so the client-written leftmost
 * X-Forwarded-For entry would become the address and per-address rate limits could be bypassed.
 * Returns a message prefixed with "!" for a bad value.
 */
export function parseTrustProxy(raw: string): TrustProxy | `!${string}` {
  const value = raw.trim().toLowerCase();
  if (["false", "0", "no"].includes(value)) return false;
  if (["true", "yes"].includes(value)) {
    return '!must be a hop count or a list of proxy addresses; "true" would trust any X-Forwarded-For a client writes (use e.g. 1, or loopback, 10.0.0.0/8)';
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) return "!must be at most 16 hops";
    return hops;
  }
  const list = value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = list.find((v) => !isAddressOrCidr(v));
  if (list.length === 0 || bad !== undefined) {
    const which = bad === undefined ? "" : ` ("${bad}" is neither)`;
    return `!must be false, a hop count or a comma-separated list of proxy addresses or CIDRs${which}`;
  }
  return list;
}

export interface Config {
  env: Env["NODE_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  database:
    | { kind: "pglite"; dir: string }
    | {
        kind: "postgres";
        url: string;
        /** How long to wait for a connection (a new one, or a free one from the pool). */
        connectTimeoutMs: number;
        /** How long one statement may run (server side) and wait for its answer (client side). */
        queryTimeoutMs: number;
      };
  logLevel: Env["LOG_LEVEL"];
  /** Signs sessions and tokens. Unset: see resolveAuthSecret in server/runtime.ts. */
  authSecret: string | null;
  /**
   * Express's "trust proxy" setting: false (the peer is the client), a number of proxy hops, or the
   * addresses/CIDRs/names ("loopback", "uniquelocal") of trusted proxies. See docs/deploy.md.
   */
  trustProxy: TrustProxy;
  business: BusinessIdentity;
  currency: {
    /** Live provider of USD rates; null: the built-in table. */
    exchangeRatesUrl: string | null;
    exchangeRatesTimeoutMs: number;
    /** Lowercase name of a trusted proxy's country header; null: not used. */
    countryHeader: string | null;
    /** Offline GeoIP lookup of the client address. */
    geoip: boolean;
  };
  mail: {
    /** smtp:// or smtps:// URL of the relay; null = messages are captured and shown at /dev/mail. */
    smtpUrl: string | null;
    /** The From header of every email. */
    from: string;
    /**
     * Whether /dev/mail (the captured-mail inbox) is served: DEV_MAIL_ENABLED, else on outside production,
     * and in production while no relay is set and PUBLIC_URL is not https (docs/decisions/0312).
     */
    devInboxEnabled: boolean;
    maxAttempts: number;
    /** First retry delay; doubles with each failed attempt. */
    retryBaseMs: number;
    pollIntervalMs: number;
    /** How long a claimed email is held before another worker may retry it (after a crash). */
    leaseMs: number;
  };
  /** Contact messages (and newsletter sign-ups) accepted per hour from one IP address or to one email. */
  contactRateLimitPerHour: number;
  /** Quote requests accepted per hour from everyone together (QUOTE_REQUESTS_PER_HOUR), ADR 0513. */
  quoteRequestsPerHour: number;
  /** ATTACHMENT_QUOTA_MB in bytes: the most an account may keep in files attached to order messages. */
  attachmentQuotaBytes: number;
  /** Accounts made admins once their address is verified (ADMIN_EMAILS), lower-cased. */
  adminEmails: string[];
  /** ADMIN_REQUIRE_2FA: an admin without two-factor sign-in gets only its setup page in /admin. */
  adminRequireTwoFactor: boolean;
  payments: {
    provider: "sandbox" | "stripe";
    /** Signs the sandbox provider's webhooks; null: derived from the auth secret. */
    sandboxWebhookSecret: string | null;
    /** Where the sandbox provider posts its webhooks; null: PUBLIC_URL + /api/payments/sandbox/webhook. */
    sandboxWebhookUrl: string | null;
    stripeSecretKey: string | null;
    stripeWebhookSecret: string | null;
    /** Another Stripe API base URL (tests serve a fake Stripe on 127.0.0.1); null: api.stripe.com. */
    stripeApiUrl: string | null;
  };
  invoices: {
    /** Tax added to every new invoice, in percent of the subtotal. */
    taxRatePercent: number;
    /** Days from the invoice date to its due date. */
    dueDays: number;
  };
  plans: {
    /** Days before a period starts that its renewal invoice is issued (RENEWAL_NOTICE_DAYS). */
    renewalNoticeDays: number;
  };
  live: {
    /** How often an open /api/events stream gets a comment line (keeps proxies from closing it). */
    heartbeatMs: number;
    /** How often an open stream checks that its session still exists (sign-out elsewhere closes it). */
    sessionCheckMs: number;
  };
  /** How often each process marks sent invoices past their due date overdue, and offers to expire quotes. */
  overdueCheckIntervalMs: number;
  /** How often each process offers to run the payment sweep (one process at a time runs it, ADR 0503). */
  paymentSweepIntervalMs: number;
  /** How long a checkout is pending before the sweep asks the provider about it (10 minutes). */
  paymentSweepPendingAfterMs: number;
  /** Serve /api/test-hooks/* (browser tests make orders and payments through it). Never in a real deployment. */
  testHooks: boolean;
  /** The bearer token GET /metrics asks for; null: /metrics answers this machine only (server/metrics.ts). */
  metricsToken: string | null;
  /** Scheduled backups (app/features/backups, ADR 0902). */
  backups: {
    /** Where the running site writes its backups; null: no scheduled backups. */
    dir: string | null;
    /** How long after a backup the next one is due (one process at a time takes it). */
    intervalMs: number;
    /** How many backup files BACKUP_DIR keeps (the newest); older ones are deleted after each backup. */
    keep: number;
  };
  /** Years the documents tax law asks for are kept after an account's deletion (RETENTION_YEARS, 10). */
  retentionYears: number;
  /**
   * The seller's VAT (issue 40, ADR 0542): the mode deciding each invoice's treatment (tax/treatment.ts),
   * the identifiers an e-invoice may need, and the VIES service that confirms buyers' VAT numbers.
   */
  tax: {
    mode: SellerTaxMode;
    registrationId: string | null;
    taxNumber: string | null;
    viesUrl: string;
  };
  /** The domain checker's DNS servers, limits and test-only settings (app/features/domain-checks/settings.ts). */
  domainChecks: DomainCheckSettings;
}

/**
 * The captured-mail inbox when DEV_MAIL_ENABLED is not set (docs/decisions/0312). Without a relay no email
 * leaves the machine, so the inbox is the only way to read the verification link of the first account:
 * it is on, also for `npm start` (production mode on a laptop). With a relay the mail reaches its
 * recipients and the inbox is off in production. A production site on an https PUBLIC_URL faces the
 * public, where the inbox would show every password-reset link to anyone: off there too.
 */
function defaultDevInbox(e: Env & { PUBLIC_URL: string }, isProduction: boolean): boolean {
  if (!isProduction) return true;
  if (e.SMTP_URL) return false;
  return new URL(e.PUBLIC_URL).protocol !== "https:";
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** PUBLIC_URL when unset: localhost on PORT (on 3000 for PORT=0, whose port is only known once listening). */
function defaultPublicUrl(port: number): string {
  return `http://localhost:${port || 3000}`;
}

/** The seller's VAT mode, or the configuration error that names the setting at fault (tax/seller-mode.ts). */
function taxModeOf(e: Env): SellerTaxMode {
  const mode = sellerTaxMode({
    country: e.BUSINESS_COUNTRY,
    taxRatePercent: e.TAX_RATE_PERCENT,
    vatRatePercent: e.VAT_RATE_PERCENT,
    exemptReason: e.VAT_EXEMPT_REASON,
    taxId: e.BUSINESS_TAX_ID,
    taxNumber: e.BUSINESS_TAX_NUMBER,
  });
  if (typeof mode === "string") throw new ConfigError(`Invalid configuration: ${mode}`);
  return mode;
}

/** DOMAIN_CHECK_CA_FILE's certificates (PEM), or a configuration error naming the file. */
function readCaFile(file: string): string {
  try {
    const pem = readFileSync(file, "utf8");
    if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("no PEM certificate in it");
    return pem;
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: DOMAIN_CHECK_CA_FILE ${file} cannot be read: ${(error as Error).message}`,
    );
  }
}

/** Parses an environment (process.env by default) into the typed configuration, or throws ConfigError. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set", as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    throw new ConfigError(
      `Invalid configuration: ${variable} ${issue.message} (got "${source[variable] ?? ""}")`,
    );
  }
  const e = { ...parsed.data, PUBLIC_URL: parsed.data.PUBLIC_URL ?? defaultPublicUrl(parsed.data.PORT) };
  const isProduction = e.NODE_ENV === "production";
  // Several processes on one PostgreSQL must share one secret, so a deployment has to set it.
  if (isProduction && e.DATABASE_URL && !e.AUTH_SECRET) {
    throw new ConfigError(
      "Invalid configuration: AUTH_SECRET must be set in production when DATABASE_URL is used",
    );
  }
  // The test hooks create orders and payments: only ever on a server that serves this machine alone.
  if (e.TEST_HOOKS && !["127.0.0.1", "localhost", "[::1]"].includes(new URL(e.PUBLIC_URL).hostname)) {
    throw new ConfigError(
      "Invalid configuration: TEST_HOOKS is only allowed when PUBLIC_URL is a loopback address",
    );
  }
  const domainChecks: DomainCheckSettings = {
    dnsServers: e.DNS_SERVERS ?? [],
    allowLoopback: e.DOMAIN_CHECK_ALLOW_LOOPBACK,
    portOverrides: e.DOMAIN_CHECK_PORTS ?? {},
    extraCa: e.DOMAIN_CHECK_CA_FILE ? [readCaFile(e.DOMAIN_CHECK_CA_FILE)] : undefined,
    testServer: e.TEST_HOOKS,
    limits: DEFAULT_LIMITS,
  };
  const domainCheckError = domainCheckSafetyError(domainChecks, e.NODE_ENV);
  if (domainCheckError) throw new ConfigError(`Invalid configuration: ${domainCheckError}`);
  if (e.PAYMENT_PROVIDER === "stripe" && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      "Invalid configuration: PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET",
    );
  }
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ""),
    database: e.DATABASE_URL
      ? {
          kind: "postgres",
          url: e.DATABASE_URL,
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
          queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
        }
      : { kind: "pglite", dir: e.PGLITE_DIR },
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET ?? null,
    trustProxy: e.TRUST_PROXY,
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `"${e.BUSINESS_NAME.replace(/["\\]/g, "")}" <${e.BUSINESS_EMAIL}>`,
      devInboxEnabled: e.DEV_MAIL_ENABLED ?? defaultDevInbox(e, isProduction),
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retryBaseMs: e.MAIL_RETRY_BASE_MS,
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
      leaseMs: e.MAIL_LEASE_MS,
    },
    contactRateLimitPerHour: e.CONTACT_RATE_LIMIT_PER_HOUR,
    quoteRequestsPerHour: e.QUOTE_REQUESTS_PER_HOUR,
    attachmentQuotaBytes: e.ATTACHMENT_QUOTA_MB * 1024 * 1024,
    adminEmails: e.ADMIN_EMAILS,
    adminRequireTwoFactor: e.ADMIN_REQUIRE_2FA,
    payments: {
      provider: e.PAYMENT_PROVIDER,
      sandboxWebhookSecret: e.SANDBOX_WEBHOOK_SECRET ?? null,
      sandboxWebhookUrl: e.SANDBOX_WEBHOOK_URL ?? null,
      stripeSecretKey: e.STRIPE_SECRET_KEY ?? null,
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
      stripeApiUrl: e.STRIPE_API_URL ?? null,
    },
    invoices: { taxRatePercent: e.TAX_RATE_PERCENT, dueDays: e.INVOICE_DUE_DAYS },
    plans: { renewalNoticeDays: e.RENEWAL_NOTICE_DAYS },
    live: { heartbeatMs: e.LIVE_HEARTBEAT_MS, sessionCheckMs: e.LIVE_SESSION_CHECK_MS },
    overdueCheckIntervalMs: e.OVERDUE_CHECK_INTERVAL_MS,
    paymentSweepIntervalMs: e.PAYMENT_SWEEP_INTERVAL_MS,
    paymentSweepPendingAfterMs: e.PAYMENT_SWEEP_PENDING_AFTER_MS,
    metricsToken: e.METRICS_TOKEN ?? null,
    backups: {
      dir: e.BACKUP_DIR ?? null,
      intervalMs: Math.round(e.BACKUP_INTERVAL_HOURS * 3_600_000),
      keep: e.BACKUP_KEEP,
    },
    retentionYears: e.RETENTION_YEARS,
    tax: {
      mode: taxModeOf(e),
      registrationId: e.BUSINESS_REGISTRATION_ID ?? null,
      taxNumber: e.BUSINESS_TAX_NUMBER ?? null,
      viesUrl: e.VIES_URL.replace(/\/+$/, ""),
    },
    domainChecks,
    testHooks: e.TEST_HOOKS,
    business: {
      name: e.BUSINESS_NAME,
      legalName: e.BUSINESS_LEGAL_NAME,
      email: e.BUSINESS_EMAIL,
      phone: e.BUSINESS_PHONE,
      whatsapp: e.BUSINESS_WHATSAPP,
      address: e.BUSINESS_ADDRESS,
      ...(e.BUSINESS_TAX_ID ? { taxId: e.BUSINESS_TAX_ID } : {}),
      hours: {
        weekdays: e.BUSINESS_HOURS_WEEKDAYS,
        saturday: e.BUSINESS_HOURS_SATURDAY,
        sunday: e.BUSINESS_HOURS_SUNDAY,
        emergency: e.BUSINESS_HOURS_EMERGENCY,
      },
      social: {
        linkedin: e.SOCIAL_LINKEDIN,
        twitter: e.SOCIAL_TWITTER,
        facebook: e.SOCIAL_FACEBOOK,
        github: e.SOCIAL_GITHUB,
      },
    },
    currency: {
      exchangeRatesUrl: e.EXCHANGE_RATES_URL ?? null,
      exchangeRatesTimeoutMs: e.EXCHANGE_RATES_TIMEOUT_MS,
      countryHeader: e.COUNTRY_HEADER ?? null,
      geoip: e.GEOIP,
    },
  };
}
