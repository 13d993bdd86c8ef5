/**
 * All settings of the process, read from the environment once at start and checked with zod.
 * A bad value stops the process with one line naming the variable (see `ConfigError`).
 * Every variable here is listed, with its default, in `.env.example`.
 */
import { z } from "zod";
import type { BusinessIdentity } from "~/features/business/business";

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
  PUBLIC_URL: url(["http:", "https:"]).default("http://localhost:3000"),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  PGLITE_DIR: z.string().min(1).default("./data/pglite"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  TRUST_PROXY: boolean.default(false),
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
  CONTACT_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1, { message: "must be at least 1" }).default(5),
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(50, { message: "must be at least 50" }).default(15_000),
  LIVE_SESSION_CHECK_MS: z.coerce.number().int().min(50, { message: "must be at least 50" }).default(60_000),
  OVERDUE_CHECK_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(50, { message: "must be at least 50" })
    .default(15 * 60_000),
  TEST_HOOKS: boolean.default(false),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  database: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
  logLevel: Env["LOG_LEVEL"];
  /** Signs sessions and tokens. Unset: see resolveAuthSecret in server/runtime.ts. */
  authSecret: string | null;
  trustProxy: boolean;
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
    /** Whether /dev/mail (the captured-mail inbox) is served. Off in production unless enabled. */
    devInboxEnabled: boolean;
    maxAttempts: number;
    /** First retry delay; doubles with each failed attempt. */
    retryBaseMs: number;
    pollIntervalMs: number;
  };
  /** Contact messages (and newsletter sign-ups) accepted per hour from one IP address or to one email. */
  contactRateLimitPerHour: number;
  live: {
    /** How often an open /api/events stream gets a comment line (keeps proxies from closing it). */
    heartbeatMs: number;
    /** How often an open stream checks that its session still exists (sign-out elsewhere closes it). */
    sessionCheckMs: number;
  };
  /** How often each process marks sent invoices past their due date overdue. */
  overdueCheckIntervalMs: number;
  /** Serve /__test/* (browser tests make orders and payments through it). Never in a real deployment. */
  testHooks: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
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
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
  // Several processes on one PostgreSQL must share one secret, so a deployment has to set it.
  if (isProduction && e.DATABASE_URL && !e.AUTH_SECRET) {
    throw new ConfigError(
      "Invalid configuration: AUTH_SECRET must be set in production when DATABASE_URL is used",
    );
  }
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ""),
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dir: e.PGLITE_DIR },
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET ?? null,
    trustProxy: e.TRUST_PROXY,
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `"${e.BUSINESS_NAME.replace(/["\\]/g, "")}" <${e.BUSINESS_EMAIL}>`,
      devInboxEnabled: e.DEV_MAIL_ENABLED ?? !isProduction,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retryBaseMs: e.MAIL_RETRY_BASE_MS,
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
    },
    contactRateLimitPerHour: e.CONTACT_RATE_LIMIT_PER_HOUR,
    live: { heartbeatMs: e.LIVE_HEARTBEAT_MS, sessionCheckMs: e.LIVE_SESSION_CHECK_MS },
    overdueCheckIntervalMs: e.OVERDUE_CHECK_INTERVAL_MS,
    testHooks: e.TEST_HOOKS,
    business: {
      name: e.BUSINESS_NAME,
      legalName: e.BUSINESS_LEGAL_NAME,
      email: e.BUSINESS_EMAIL,
      phone: e.BUSINESS_PHONE,
      whatsapp: e.BUSINESS_WHATSAPP,
      address: e.BUSINESS_ADDRESS,
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
