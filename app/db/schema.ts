/**
 * The one PostgreSQL schema of Portico, used on PGlite and on a PostgreSQL server alike.
 * Change it here, then run `npm run db:generate` and commit the new migration under drizzle/.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------------------
// Authentication (the tables better-auth expects; see docs/decisions/0004-auth-tables.md)
// ---------------------------------------------------------------------------

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role", { enum: ["client", "admin"] })
    .notNull()
    .default("client"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

// ---------------------------------------------------------------------------
// Clients and their preferences
// ---------------------------------------------------------------------------

/** A client's business record; its id is the auth user's id. */
export const clients = pgTable("clients", {
  id: text("id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone"),
  company: text("company"),
  emailVerified: boolean("email_verified").notNull().default(false),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const userPreferences = pgTable(
  "user_preferences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    preferredCurrency: text("preferred_currency").notNull().default("USD"),
    autoDetectCurrency: boolean("auto_detect_currency").notNull().default(true),
    countryCode: text("country_code"),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("user_preferences_user_id_key").on(t.userId),
    check("user_preferences_currency_code", sql`${t.preferredCurrency} ~ '^[A-Z]{3}$'`),
  ],
);

// ---------------------------------------------------------------------------
// Service catalogue
// ---------------------------------------------------------------------------

/** Package key (basic, standard, single…) to its USD price. */
export type PricingMap = Record<string, number>;
/** Package key to the list of what it includes. */
export type FeatureMap = Record<string, string[]>;
/** Package key to the name shown to people. */
export type PackageNameMap = Record<string, string>;
/** Optional extras bought with a package, such as the SSL procurement fee. */
export type AddonMap = Record<string, { name: string; usd: number }>;

export const services = pgTable(
  "services",
  {
    id: uuid("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    pricing: jsonb("pricing").$type<PricingMap>().notNull(),
    features: jsonb("features").$type<FeatureMap>().notNull(),
    packageNames: jsonb("package_names").$type<PackageNameMap>().notNull(),
    /** Package keys in the order they are offered; the first is the default when there is no 'basic'. */
    packageOrder: text("package_order").array().notNull(),
    addons: jsonb("addons").$type<AddonMap>().notNull().default({}),
    /** What one unit of quantity is ('Number of Mailboxes'); null when the service has no quantity. */
    quantityLabel: text("quantity_label"),
    minQuantity: integer("min_quantity").notNull().default(1),
    maxQuantity: integer("max_quantity").notNull().default(1),
    sortOrder: integer("sort_order").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("services_quantity_bounds", sql`${t.minQuantity} >= 1 AND ${t.maxQuantity} >= ${t.minQuantity}`),
  ],
);

export type Service = typeof services.$inferSelect;
export type NewService = typeof services.$inferInsert;
export type Client = typeof clients.$inferSelect;
export type UserPreferences = typeof userPreferences.$inferSelect;

// ---------------------------------------------------------------------------
// Contact messages, newsletter, outgoing mail and rate limits
// (docs/decisions/0300-mail-outbox.md, 0301-rate-limits-in-the-database.md)
// ---------------------------------------------------------------------------

/** Every message a person sends through a contact form, stored before any email about it is queued. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    /** Where it was sent from: the site's contact section, the portal's Need Help box, the JSON API. */
    source: text("source", { enum: ["site", "portal", "api"] }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt)],
);

export const outboxStatuses = ["pending", "sending", "sent", "captured", "failed"] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/** The persistent outbox: every email Portico sends is a row here first (rendered, ready to send). */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What kind of email this is ('contact-notification', 'contact-confirmation', …), for logs and the inbox. */
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: text("status", { enum: outboxStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While 'sending': the end of the claiming worker's lease; after it another worker may retry. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    /** The Message-ID the transport reported. */
    messageId: text("message_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("outbox_emails_due_idx").on(t.status, t.nextAttemptAt),
    index("outbox_emails_created_at_idx").on(t.createdAt),
  ],
);

export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Lower-cased, so one address subscribes once. */
  email: text("email").notNull().unique(),
  source: text("source").notNull().default("site"),
  createdAt: createdAt(),
});

/** Fixed-window counters shared by every process (key = purpose + address). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

export type ContactMessage = typeof contactMessages.$inferSelect;
export type OutboxEmail = typeof outboxEmails.$inferSelect;
