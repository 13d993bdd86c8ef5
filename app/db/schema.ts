/**
 * The one PostgreSQL schema of Portico, used on PGlite and on a PostgreSQL server alike.
 * Change it here, then run `npm run db:generate` and commit the new migration under drizzle/.
 */
import { relations, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ATTACHMENT_MAX_BYTES, ORDER_MESSAGE_MAX_CHARS } from "./limits";

/** Money columns: exact decimals in PostgreSQL (sums in SQL are exact), numbers in TypeScript. */
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: "number" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------------------
// Authentication (the tables better-auth expects; see docs/decisions/0401-auth-tables.md)
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
  // better-auth's two-factor plugin (docs/decisions/0702-two-factor-sign-in.md).
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
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

/**
 * better-auth reads a session with its user (and a sign-in's user with its accounts) in one statement
 * (`advanced.database.joins`, accounts/auth.server.ts): drizzle's relational queries need these.
 * Relations are not tables: they change no migration.
 */
export const userRelations = relations(user, ({ many }) => ({
  sessions: many(session),
  accounts: many(account),
}));
export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));
export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));

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

/**
 * better-auth's two-factor plugin: one row per user who started or finished TOTP setup (`verified` false
 * until the first code is confirmed). The secret and the backup codes are encrypted with the auth secret.
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [uniqueIndex("two_factor_user_id_idx").on(t.userId)],
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
  /** Billing details printed on the invoices issued from now on (each invoice keeps its own copy). */
  address: text("address"),
  /** The billing country, an ISO 3166-1 alpha-2 code ("DE"): issue 37, item 12; ADR 0504. */
  countryCode: text("country_code"),
  /**
   * The free text the profile took before the list ("Narnia"), kept while it names no country so the
   * profile asks the client to choose; null once chosen (migration 0023 moved every match to the code).
   */
  country: text("country"),
  taxId: text("tax_id"),
  /**
   * What the EU's VIES service said of `tax_id` as an EU VAT number (issue 40, ADR 0542): `valid`,
   * `invalid`, or `unconfirmed` (VIES could not answer); the number it was said of (normalised), when,
   * and VIES's request identifier (the proof a reverse charge keeps). Null when never asked.
   */
  vatStatus: text("vat_status", { enum: ["valid", "invalid", "unconfirmed"] }),
  vatCheckedNumber: text("vat_checked_number"),
  vatCheckedAt: timestamp("vat_checked_at", { withTimezone: true }),
  vatRequestId: text("vat_request_id"),
  /**
   * Issue 40, item 4: the format the invoice email attaches (`pdf`, `factur-x`, `cii` (XRechnung when a
   * reference is given), `ubl`), the address invoices go to (null: the account's email), and the
   * client's reference for their invoices (BT-10, a Leitweg-ID).
   */
  invoiceFormat: text("invoice_format", { enum: ["pdf", "factur-x", "cii", "ubl"] })
    .notNull()
    .default("pdf"),
  invoiceEmail: text("invoice_email"),
  buyerReference: text("buyer_reference"),
  /**
   * The profile's timezone and language (ADR 0521); null until the client saves the profile once, read
   * as the spec's defaults (America/New_York, English). Allowed values: accounts/account-locale.ts.
   */
  timeZone: text("time_zone"),
  language: text("language"),
  emailVerified: boolean("email_verified").notNull().default(false),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  /**
   * When the account was deleted (issue 25, ADR 0520): its personal fields hold placeholders since, and
   * only the orders, invoices and credit notes the law asks us to keep still point at it.
   */
  deletedAt: timestamp("deleted_at", { withTimezone: true }),
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
    // The profile's Notifications switches (client-portal.md §2), with the spec's defaults; a user
    // without a row has the defaults. What each one stops: accounts/notification-preferences.ts.
    emailNotifications: boolean("email_notifications").notNull().default(true),
    smsNotifications: boolean("sms_notifications").notNull().default(false),
    orderUpdates: boolean("order_updates").notNull().default(true),
    marketingEmails: boolean("marketing_emails").notNull().default(false),
    securityAlerts: boolean("security_alerts").notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("user_preferences_user_id_key").on(t.userId),
    check("user_preferences_currency_code", sql`${t.preferredCurrency} ~ '^[A-Z]{3}$'`),
  ],
);

/**
 * The devices a user signed in from (user agent and address family), most recent first: a sign-in from
 * one not among the last few sends a security alert (accounts/security-alerts.server.ts). Kept apart
 * from better-auth's sessions, which are deleted at sign-out.
 */
export const signInDevices = pgTable(
  "sign_in_devices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    userAgent: text("user_agent").notNull(),
    ipFamily: text("ip_family").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.userAgent, t.ipFamily] }),
    index("sign_in_devices_user_seen_idx").on(t.userId, t.lastSeenAt),
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

export const intakeQuestionKinds = ["text", "textarea", "number"] as const;
export type IntakeQuestionKind = (typeof intakeQuestionKinds)[number];

/**
 * One question of a service's brief (the intake): what the owner needs answered to start the job.
 * `key` names the answer in `order_briefs.answers`; `maxLength` bounds the answer's characters.
 * Checked by `intakeQuestionsSchema` (features/catalogue/intake-questions.ts).
 */
export interface IntakeQuestion {
  key: string;
  label: string;
  kind: IntakeQuestionKind;
  required: boolean;
  maxLength: number;
  hint?: string;
}

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
    /**
     * The questions a client answers after paying (the brief). Null: never set, so seeding fills in the
     * catalogue's own (seed-data.ts); an empty list: the owner asks nothing (ADR 0512).
     */
    intakeQuestions: jsonb("intake_questions").$type<IntakeQuestion[]>(),
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

/**
 * Care plans (issue 38, ADR 0530): services that renew monthly or yearly. Prices are USD like the
 * services' and shown in the visitor's currency the same way; a plan has a monthly or a yearly price,
 * or both. `incidentAllowance` is the per-incident support jobs included per period; `watchedDomains`
 * how many domains the plan watches (the domain-health issue).
 */
export const carePlans = pgTable(
  "care_plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    /** What is included, one line each, in the order shown. */
    included: jsonb("included").$type<string[]>().notNull().default([]),
    monthlyPriceUsd: money("monthly_price_usd"),
    yearlyPriceUsd: money("yearly_price_usd"),
    incidentAllowance: integer("incident_allowance").notNull().default(0),
    watchedDomains: integer("watched_domains").notNull().default(0),
    sortOrder: integer("sort_order").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("care_plans_has_price", sql`${t.monthlyPriceUsd} IS NOT NULL OR ${t.yearlyPriceUsd} IS NOT NULL`),
    check(
      "care_plans_prices_positive",
      sql`(${t.monthlyPriceUsd} IS NULL OR ${t.monthlyPriceUsd} > 0) AND (${t.yearlyPriceUsd} IS NULL OR ${t.yearlyPriceUsd} > 0)`,
    ),
    check("care_plans_allowance", sql`${t.incidentAllowance} >= 0 AND ${t.watchedDomains} >= 0`),
  ],
);

export type CarePlan = typeof carePlans.$inferSelect;
export type NewCarePlan = typeof carePlans.$inferInsert;

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
    /** When the owner opened it in the back office; null while unread. */
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("contact_messages_created_at_idx").on(t.createdAt),
    index("contact_messages_unread_idx").on(t.createdAt).where(sql`${t.readAt} is null`),
  ],
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
    /** The recipient's name, written `"Name" <address>` in To: (null on rows queued before it was kept). */
    toName: text("to_name"),
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
    /**
     * Erase the address and the body once sent (or failed for good): the confirmation of an account's
     * deletion goes to an address Portico must then forget (ADR 0520).
     */
    eraseWhenSent: boolean("erase_when_sent").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("outbox_emails_due_idx").on(t.status, t.nextAttemptAt),
    index("outbox_emails_created_at_idx").on(t.createdAt),
  ],
);

/**
 * A request for custom work (issue "quotes"): from the home page's quote form (anyone) or the portal's
 * /client/quotes/new (a signed-in client, `client_id` set). Stored before any email is queued, like a
 * contact message. The owner answers it with a quote.
 */
export const quoteRequestStatuses = ["new", "quoted", "closed"] as const;
export type QuoteRequestStatus = (typeof quoteRequestStatuses)[number];

export const quoteRequests = pgTable(
  "quote_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").references(() => clients.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    /** The catalogue services concerned, by name as they were when asked (may be empty: "something else"). */
    services: jsonb("services").$type<string[]>().notNull().default([]),
    description: text("description").notNull(),
    budget: text("budget"),
    /** The date the work should be done by, as asked (YYYY-MM-DD). */
    deadline: date("deadline", { mode: "string" }),
    status: text("status", { enum: quoteRequestStatuses }).notNull().default("new"),
    source: text("source", { enum: ["site", "portal"] }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("quote_requests_created_idx").on(t.createdAt),
    index("quote_requests_client_created_idx").on(t.clientId, t.createdAt),
  ],
);

/** One line of a quote: a catalogue service's package, or a free line priced by the owner (USD). */
export type QuoteLine =
  | {
      kind: "catalogue";
      serviceId: string;
      serviceName: string;
      package: string;
      packageName: string;
      quantity: number;
      /** The catalogue's price when quoted, frozen on the quote. */
      unitPriceUsd: number;
    }
  | { kind: "free"; description: string; quantity: number; unitPriceUsd: number };

export const quoteStatuses = ["draft", "sent", "accepted", "declined", "expired", "superseded"] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];

/**
 * A quote (issue "quotes"): written by the owner as a draft, numbered `Q-{year}-{seq}` when sent and
 * never edited after (a revision is a new quote that supersedes it). Amounts in USD, computed by the
 * server from its lines (catalogue lines priced from the catalogue when quoted). Accepting it, with
 * the terms ticked and the client's full name as signature, makes its order and first invoice.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    quoteNumber: text("quote_number").unique(),
    quoteYear: integer("quote_year"),
    quoteSeq: integer("quote_seq"),
    requestId: uuid("request_id").references(() => quoteRequests.id),
    /** The client it is for; null while it is for a requester who has no account yet (`email`). */
    clientId: text("client_id").references(() => clients.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    status: text("status", { enum: quoteStatuses }).notNull().default("draft"),
    lines: jsonb("lines").$type<QuoteLine[]>().notNull().default([]),
    subtotalUsd: money("subtotal_usd").notNull().default(0),
    discountUsd: money("discount_usd").notNull().default(0),
    taxRatePercent: numeric("tax_rate_percent", { precision: 5, scale: 2, mode: "number" })
      .notNull()
      .default(0),
    taxUsd: money("tax_usd").notNull().default(0),
    totalUsd: money("total_usd").notNull().default(0),
    /** The VAT treatment frozen when it is sent (issue 40); null on a draft and on older quotes. */
    tax: jsonb("tax").$type<DocumentTax>(),
    /** The share of the total invoiced on acceptance (whole percent); null: all of it. */
    depositPercent: integer("deposit_percent"),
    validUntil: date("valid_until", { mode: "string" }).notNull(),
    terms: text("terms").notNull().default(""),
    /** The sent quote this one revises (which becomes superseded when this one is sent). */
    supersedesId: uuid("supersedes_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    /** The signature: the full name typed, with where and how it was given. */
    acceptedName: text("accepted_name"),
    /** The company the signer accepted for, when they said so; null: the client for themselves. */
    acceptedForCompany: text("accepted_for_company"),
    acceptedIp: text("accepted_ip"),
    acceptedUserAgent: text("accepted_user_agent"),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    declineReason: text("decline_reason"),
    expiredAt: timestamp("expired_at", { withTimezone: true }),
    orderId: uuid("order_id"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("quotes_year_seq_key").on(t.quoteYear, t.quoteSeq),
    index("quotes_client_created_idx").on(t.clientId, t.createdAt),
    index("quotes_email_idx").on(t.email),
    index("quotes_status_valid_idx").on(t.status, t.validUntil),
    check(
      "quotes_deposit_percent",
      sql`${t.depositPercent} IS NULL OR (${t.depositPercent} BETWEEN 1 AND 99)`,
    ),
    check("quotes_amounts", sql`${t.totalUsd} >= 0 AND ${t.discountUsd} >= 0`),
  ],
);

/** The last quote number given out per year (like invoice_counters). */
export const quoteCounters = pgTable("quote_counters", {
  year: integer("year").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});

export type Quote = typeof quotes.$inferSelect;

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

// ---------------------------------------------------------------------------
// The money side: orders, invoices, payment events (docs/decisions/0500-money-data-model.md)
// ---------------------------------------------------------------------------

/**
 * An add-on bought with an order (the SSL procurement fee, client-portal.md §9), priced by the server
 * when the order is made: its own line on the invoice. `amountInCurrency` is in the order's currency.
 */
export interface OrderAddon {
  key: string;
  name: string;
  unitPriceUsd: number;
  quantity: number;
  amountUsd: number;
  amountInCurrency: number;
}

export const orderStatuses = ["pending", "paid", "in_progress", "completed", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * One purchase of one service package. Prices, the exchange rate and both amounts are fixed when the
 * order is made (by the server, from the catalogue), so later price or rate changes never alter it.
 * The service's and package's names are kept as they were at purchase, for the same reason.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id),
    /** The catalogue service bought; null for an order made by accepting a quote (`quote_id`). */
    serviceId: uuid("service_id").references(() => services.id),
    serviceName: text("service_name").notNull(),
    serviceCategory: text("service_category").notNull(),
    package: text("package").notNull(),
    packageName: text("package_name").notNull(),
    quantity: integer("quantity").notNull().default(1),
    unitPriceUsd: money("unit_price_usd").notNull(),
    /** The add-ons bought with the package; `amount_usd` and `amount_in_currency` include them. */
    addons: jsonb("addons").$type<OrderAddon[]>().notNull().default([]),
    amountUsd: money("amount_usd").notNull(),
    currency: text("currency").notNull().default("USD"),
    amountInCurrency: money("amount_in_currency").notNull(),
    /** Units of `currency` per USD when the order was priced. */
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 8, mode: "number" }).notNull(),
    status: text("status", { enum: orderStatuses }).notNull().default("pending"),
    /** The payment provider that took (or is taking) the payment: 'sandbox', 'stripe', 'manual'. */
    provider: text("provider"),
    /** The provider's id for the checkout or payment (a Stripe Checkout Session id, …). */
    providerReference: text("provider_reference"),
    /** A one-time token of the purchase form: the same form posted twice makes one order. */
    checkoutToken: text("checkout_token"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** When each later step of the life cycle was reached (the order page's timeline). */
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** The quote this order was made by accepting (one order per quote), if any. */
    quoteId: uuid("quote_id"),
    /**
     * The care plan this order is one period of (ADR 0531), if any: the plan's pages list these, the
     * ordinary order lists leave them out. Its period is the plan_periods row naming this order.
     */
    planSubscriptionId: uuid("plan_subscription_id"),
    /**
     * The care-plan period whose incident allowance covers this order (issue 38, item 6; ADR 0531): an
     * order at zero with no invoice, its plan named on its page. Null for every order that is paid for.
     */
    coveredByPeriodId: uuid("covered_by_period_id").references((): AnyPgColumn => planPeriods.id),
    /**
     * The domain alert whose fix this order is (issue 39, item 4): the owner's order pages say so. Null
     * once the domain is removed (the order stays).
     */
    fromDomainAlertId: uuid("from_domain_alert_id").references((): AnyPgColumn => domainAlerts.id, {
      onDelete: "set null",
    }),
    /** When the payment sweep last asked the provider about this order's checkout (ADR 0503). */
    checkoutCheckedAt: timestamp("checkout_checked_at", { withTimezone: true }),
    /**
     * What has been refunded of this order, in USD at the order's rate (ADR 0505): its totals count
     * `amount_usd - refunded_usd` (the client_totals triggers too).
     */
    refundedUsd: money("refunded_usd").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The portal's lists read one page in their order (created_at desc, id desc) straight off these, all
    // orders or one status (docs/decisions/0801-portal-pages-flat-with-data.md).
    index("orders_client_created_id_idx").on(t.clientId, t.createdAt, t.id),
    index("orders_client_status_created_idx").on(t.clientId, t.status, t.createdAt, t.id),
    index("orders_status_created_idx").on(t.status, t.createdAt),
    uniqueIndex("orders_client_checkout_token_key").on(t.clientId, t.checkoutToken),
    uniqueIndex("orders_quote_key").on(t.quoteId),
    index("orders_plan_subscription_idx").on(t.planSubscriptionId),
    index("orders_covered_by_period_idx").on(t.coveredByPeriodId),
    check("orders_quantity_positive", sql`${t.quantity} >= 1`),
    check("orders_amounts_non_negative", sql`${t.amountUsd} >= 0 AND ${t.amountInCurrency} >= 0`),
    check("orders_currency_code", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    // Nothing is sold when a plan covers the order: its amounts are zero (and it has no invoice).
    check(
      "orders_covered_at_zero",
      sql`${t.coveredByPeriodId} IS NULL OR (${t.amountUsd} = 0 AND ${t.amountInCurrency} = 0)`,
    ),
  ],
);

export const invoiceStatuses = ["sent", "paid", "overdue", "void"] as const;
/**
 * What an invoice bills of its order: all of it (every purchase), or, for an order made from a quote
 * with a deposit, the deposit (issued on acceptance) or the balance (issued when the order completes).
 */
export const invoiceKinds = ["full", "deposit", "balance"] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/**
 * The invoice of an order (one per order). `invoice_number` is `INV-{year}-{seq}` with `seq` taken
 * from `invoice_counters` in the same transaction, so numbers are unique and have no gaps.
 */
/**
 * Who bought, as the invoice was issued: copied from the client's profile in the issuing transaction
 * and never changed after (docs/decisions/0504-invoices-frozen-when-issued.md).
 */
export interface InvoiceBuyer {
  name: string;
  email: string;
  company: string | null;
  address: string | null;
  country: string | null;
  taxId: string | null;
  phone: string | null;
  /** The billing country's ISO code (issue 40: the e-invoice's BT-55); absent on older copies. */
  countryCode?: string | null;
  /** The client's reference for their invoices (BT-10, a Leitweg-ID for XRechnung). */
  reference?: string | null;
}

/** Who sold, as the invoice was issued: the business settings of that moment (ADR 0504). */
export interface InvoiceSeller {
  name: string;
  legalName: string;
  address: string;
  email: string;
  phone: string;
  taxId: string | null;
  /** Issue 40: the seller's country (BUSINESS_COUNTRY), tax number (BT-32) and registration id (BT-30). */
  countryCode?: string | null;
  taxNumber?: string | null;
  registrationId?: string | null;
}

/**
 * The VAT an invoice, credit note or quote carries, decided from the seller's mode and the buyer when it
 * was issued and frozen with it (issue 40, ADR 0542): EN 16931's category, the rate, the words printed
 * about it (the reverse-charge sentence, the exemption reason), both VAT numbers, and whether the buyer's
 * number was still unconfirmed by VIES (VAT charged as for a consumer). Null on rows issued before.
 */
export interface DocumentTax {
  category: "S" | "AE" | "E" | "O";
  ratePercent: number;
  note: string | null;
  sellerVatNumber: string | null;
  buyerVatNumber: string | null;
  vatUnconfirmed: boolean;
}

export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceNumber: text("invoice_number").notNull().unique(),
    invoiceYear: integer("invoice_year").notNull(),
    invoiceSeq: integer("invoice_seq").notNull(),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    status: text("status", { enum: invoiceStatuses }).notNull().default("sent"),
    kind: text("kind", { enum: invoiceKinds }).notNull().default("full"),
    currency: text("currency").notNull().default("USD"),
    /** In `currency`: before tax, the tax, and what is due. */
    subtotal: money("subtotal").notNull(),
    taxRatePercent: numeric("tax_rate_percent", { precision: 5, scale: 2, mode: "number" })
      .notNull()
      .default(0),
    taxAmount: money("tax_amount").notNull().default(0),
    totalAmount: money("total_amount").notNull(),
    /** The total in USD (tax included), at the order's rate. */
    amountUsd: money("amount_usd").notNull(),
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 8, mode: "number" }).notNull(),
    dueDate: timestamp("due_date", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** How it was paid: a provider's payment id, or the bank reference of a payment marked by hand. */
    paymentReference: text("payment_reference"),
    /** Set when the client was told the invoice is overdue, so they are told once. */
    overdueNotifiedAt: timestamp("overdue_notified_at", { withTimezone: true }),
    /**
     * The buyer and the seller frozen when issued (ADR 0504). Null only on rows made outside
     * createInvoiceForOrder (test fixtures); a null seller (invoices issued before 0009) reads as the
     * current business settings. Once `buyer` is set, a trigger refuses changes to the amounts, rates,
     * number, owner and both copies (drizzle/0009_invoice_snapshots.sql).
     */
    buyer: jsonb("buyer").$type<InvoiceBuyer>(),
    seller: jsonb("seller").$type<InvoiceSeller>(),
    /** Its VAT treatment, frozen when issued (issue 40); null: issued before, read from the rate. */
    tax: jsonb("tax").$type<DocumentTax>(),
    /**
     * What its credit notes have given back (ADR 0505), in `currency` and in USD: a paid invoice with
     * a refunded amount reads "Partially refunded", or "Refunded" when it is the total. Kept in the
     * transaction that issues each credit note; never more than the total (a check).
     */
    refundedAmount: money("refunded_amount").notNull().default(0),
    refundedUsd: money("refunded_usd").notNull().default(0),
    /**
     * The provider's checkout this invoice is being paid through (ADR 0503, amended 2026-11-25): set
     * by every checkout made for it (a purchase, Pay Now, a quote's deposit or balance), forgotten when
     * the provider says it expired or never existed. The order's `provider_reference` names only a
     * pending order's checkout; this one also names a balance's, invoiced once the order is complete,
     * so the payment sweep and the return check can ask about it. Not part of the issued document.
     */
    checkoutProvider: text("checkout_provider"),
    checkoutReference: text("checkout_reference"),
    /** When that checkout was made (the sweep waits ten minutes for its webhook first). */
    checkoutStartedAt: timestamp("checkout_started_at", { withTimezone: true }),
    /** When the payment sweep last asked the provider about it (least recently asked first). */
    checkoutCheckedAt: timestamp("checkout_checked_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("invoices_year_seq_key").on(t.invoiceYear, t.invoiceSeq),
    // One invoice of each kind per order (a purchase has one, a quote with a deposit two).
    uniqueIndex("invoices_order_kind_key").on(t.orderId, t.kind),
    // Same as the orders' (the invoices list is ordered by created_at desc, invoice_number desc).
    index("invoices_client_created_number_idx").on(t.clientId, t.createdAt, t.invoiceNumber),
    index("invoices_client_status_created_idx").on(t.clientId, t.status, t.createdAt, t.invoiceNumber),
    index("invoices_status_due_idx").on(t.status, t.dueDate),
    check("invoices_currency_code", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      "invoices_refunded_within_total",
      sql`${t.refundedAmount} >= 0 AND ${t.refundedAmount} <= ${t.totalAmount} AND ${t.refundedUsd} >= 0 AND ${t.refundedUsd} <= ${t.amountUsd}`,
    ),
  ],
);

/**
 * Per client, per kind ('order' or 'invoice') and status: how many rows and their USD amount. Kept by
 * statement-level triggers on orders and invoices (drizzle/0005_client_totals.sql), so the portal's
 * cards, chips and list counts read a few rows instead of aggregating all of a client's orders
 * (docs/decisions/0801-portal-pages-flat-with-data.md). Never written by the application.
 */
export const clientTotals = pgTable(
  "client_totals",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["order", "invoice"] }).notNull(),
    status: text("status").notNull(),
    count: integer("count").notNull().default(0),
    amountUsd: numeric("amount_usd", { precision: 18, scale: 2, mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.kind, t.status] })],
);

/** The last invoice number given out per year (a row lock on it serialises concurrent checkouts). */
export const invoiceCounters = pgTable("invoice_counters", {
  year: integer("year").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});

/**
 * Every payment provider event received, stored once: (provider, event_id) is the idempotency key, so
 * a repeated webhook is recognised and has no second effect.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    orderId: uuid("order_id"),
    payload: jsonb("payload").notNull(),
    /** What processing did with it: 'applied', 'ignored: …' (unknown order, already paid, cancelled…). */
    outcome: text("outcome"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_key").on(t.provider, t.eventId),
    index("payment_events_order_idx").on(t.orderId),
  ],
);

/**
 * What the back office must look at about a payment (ADR 0503): a payment of the wrong amount, a payment
 * for a cancelled order, a checkout the provider does not know, a second payment of an invoice already
 * paid. One row per (kind, order, reference).
 */
export const paymentIssueKinds = [
  "wrong-amount",
  "order-cancelled",
  "unknown-checkout",
  "refund-refused",
  "refund-unmatched",
  "already-paid",
] as const;
export type PaymentIssueKind = (typeof paymentIssueKinds)[number];

export const paymentIssues = pgTable(
  "payment_issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: paymentIssueKinds }).notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    provider: text("provider").notNull(),
    reference: text("reference").notNull(),
    detail: text("detail").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_issues_kind_order_reference_key").on(t.kind, t.orderId, t.reference),
    index("payment_issues_created_idx").on(t.createdAt),
  ],
);

/** The built-in sandbox provider's checkouts: what its own checkout page knows (ADR 0503). */
export const sandboxCheckouts = pgTable("sandbox_checkouts", {
  id: text("id").primaryKey(),
  orderId: text("order_id").notNull(),
  amount: money("amount").notNull(),
  currency: text("currency").notNull(),
  paidAt: timestamp("paid_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** The sandbox's refunds of its checkouts (ADR 0505): what it has given back of each. */
export const sandboxRefunds = pgTable("sandbox_refunds", {
  id: text("id").primaryKey(),
  checkoutId: text("checkout_id").notNull(),
  amount: money("amount").notNull(),
  createdAt: createdAt(),
});

/** incomplete: subscribed, first period not yet paid (ADR 0531). */
export const planSubscriptionStatuses = [
  "incomplete",
  "active",
  "past_due",
  "suspended",
  "cancelled",
] as const;
export type PlanSubscriptionStatus = (typeof planSubscriptionStatuses)[number];
export const planCycles = ["monthly", "yearly"] as const;

/**
 * A client's care plan (ADR 0531). Its periods are anchored: period k starts on
 * periodStart(anchor_day, cycle, k - anchor_period_index), the day clamped to the month; a switch of
 * cycle moves the anchor to the switching period's first day. `next_period_index` is the next period to
 * invoice (plan_periods holds the issued ones, one per index). The plan's name, price and allowance are
 * frozen when the client subscribes: a later change to the plan applies to new subscriptions.
 */
export const planSubscriptions = pgTable(
  "plan_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id),
    planId: uuid("plan_id")
      .notNull()
      .references(() => carePlans.id),
    planName: text("plan_name").notNull(),
    cycle: text("cycle", { enum: planCycles }).notNull(),
    /** The price of one period of `cycle`, in USD; each renewal converts it at its issue day's rate. */
    priceUsd: money("price_usd").notNull(),
    /** The client's currency when they subscribed: every invoice of the plan is in it. */
    currency: text("currency").notNull(),
    /** Per-incident support jobs included per period. */
    incidentAllowance: integer("incident_allowance").notNull().default(0),
    anchorDay: date("anchor_day", { mode: "string" }).notNull(),
    anchorPeriodIndex: integer("anchor_period_index").notNull().default(0),
    nextPeriodIndex: integer("next_period_index").notNull().default(1),
    status: text("status", { enum: planSubscriptionStatuses }).notNull().default("active"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    cancelReason: text("cancel_reason"),
    /** The day a plan cancelled at its period's end ends (the end of the last period begun or paid). */
    endsOn: date("ends_on", { mode: "string" }),
    /** The cycle the plan switches to from its next period, if the client chose one. */
    nextCycle: text("next_cycle", { enum: planCycles }),
    /** The provider and its customer; the saved card charged for renewals, and what is shown of it. */
    provider: text("provider"),
    providerCustomerId: text("provider_customer_id"),
    paymentMethodId: text("payment_method_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    cardExpMonth: integer("card_exp_month"),
    cardExpYear: integer("card_exp_year"),
    /** When the card on file was read (from the first payment, a later payment or a card setup). */
    cardUpdatedAt: timestamp("card_updated_at", { withTimezone: true }),
    /** A card-update checkout (setup mode) started and not yet read back: its provider and reference. */
    cardSetupProvider: text("card_setup_provider"),
    cardSetupReference: text("card_setup_reference"),
    /** The USD price of one period of `next_cycle`, as shown to the client when they chose the switch. */
    nextPriceUsd: money("next_price_usd"),
    pastDueSince: timestamp("past_due_since", { withTimezone: true }),
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("plan_subscriptions_client_idx").on(t.clientId, t.createdAt),
    index("plan_subscriptions_status_idx").on(t.status),
    check("plan_subscriptions_price", sql`${t.priceUsd} >= 0`),
    check("plan_subscriptions_currency", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("plan_subscriptions_allowance", sql`${t.incidentAllowance} >= 0`),
    check("plan_subscriptions_next_period", sql`${t.nextPeriodIndex} >= 1`),
  ],
);
export type PlanSubscription = typeof planSubscriptions.$inferSelect;

/**
 * One period of a care plan, invoiced once: the unique (subscription, index) is what makes a renewal
 * exactly once, whatever process or retry issues it (ADR 0531). Its order and invoice are made in the
 * same transaction.
 */
export const planPeriods = pgTable(
  "plan_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => planSubscriptions.id),
    periodIndex: integer("period_index").notNull(),
    cycle: text("cycle", { enum: planCycles }).notNull(),
    startsOn: date("starts_on", { mode: "string" }).notNull(),
    endsOn: date("ends_on", { mode: "string" }).notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    /** Per-incident jobs covered by the plan in this period (never more than the allowance). */
    incidentsUsed: integer("incidents_used").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("plan_periods_subscription_index_key").on(t.subscriptionId, t.periodIndex),
    uniqueIndex("plan_periods_order_key").on(t.orderId),
    check("plan_periods_dates", sql`${t.startsOn} < ${t.endsOn}`),
  ],
);
export type PlanPeriodRow = typeof planPeriods.$inferSelect;

export const planChargeOutcomes = [
  "pending",
  "processing",
  "succeeded",
  "soft",
  "hard",
  "authentication",
] as const;
export type PlanChargeOutcome = (typeof planChargeOutcomes)[number];

/**
 * One off-session charge of a renewal invoice (ADR 0531): attempt 0 on the due day, 1–3 the retries.
 * Written `pending` before the provider is asked, so a crash leaves a row that the next run asks again
 * with the same idempotency key (the provider answers the same charge); unique per period and attempt.
 */
export const planChargeAttempts = pgTable(
  "plan_charge_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    periodId: uuid("period_id")
      .notNull()
      .references(() => planPeriods.id),
    attempt: integer("attempt").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    outcome: text("outcome", { enum: planChargeOutcomes }).notNull().default("pending"),
    code: text("code"),
    declineCode: text("decline_code"),
    adviceCode: text("advice_code"),
    message: text("message"),
    paymentReference: text("payment_reference"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("plan_charge_attempts_period_attempt_key").on(t.periodId, t.attempt)],
);

/**
 * Cards saved through the sandbox's pages (ADR 0531): the test card chosen on the page decides how later
 * charges of it end, as Stripe's test cards do. `checkout_id` is the checkout (a payment or a card setup)
 * that saved it.
 */
export const sandboxSavedCards = pgTable("sandbox_saved_cards", {
  paymentMethodId: text("payment_method_id").primaryKey(),
  checkoutId: text("checkout_id").notNull().unique(),
  customerId: text("customer_id").notNull(),
  /** One of SANDBOX_TEST_CARDS' keys. */
  card: text("card").notNull(),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  createdAt: createdAt(),
});

/** A scheduled job that one process at a time runs holds its lease row until `expires_at` (ADR 0503). */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * Each scheduled backup the running site made or tried (ADR 0902): the back office shows the newest, and
 * the schedule reads when the last one started. `file` and `sizeBytes` are set once it succeeded, `error`
 * once it failed.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull(),
    /** The file's name in BACKUP_DIR. */
    file: text("file"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    /** The newest migration the backup holds (its schema version), e.g. "0013_quotes". */
    schemaVersion: text("schema_version"),
    error: text("error"),
    /** The process that made it. */
    holder: text("holder").notNull(),
  },
  (t) => [index("backup_runs_started_at_idx").on(t.startedAt)],
);

// ---------------------------------------------------------------------------
// Money given back: refunds and their credit notes (docs/decisions/0505-refunds-and-credit-notes.md)
// ---------------------------------------------------------------------------

export const refundStatuses = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/**
 * A refund of (part of) a paid invoice. Made `pending` in the transaction that checks what is still
 * refundable (pending refunds count, so two owners refunding at once cannot give back more than was
 * paid), then asked of the provider; `succeeded` only once the provider confirms it (its answer or
 * its webhook, whichever comes first), which issues the credit note. `failed` gives the amount back
 * to what is refundable. A refund made at the provider's own dashboard arrives as its webhook and is
 * recorded too (`requested_by_email` is then the provider).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id),
    /** 'sandbox', 'stripe', or 'manual' (a bank transfer sent back by hand). */
    provider: text("provider").notNull(),
    status: text("status", { enum: refundStatuses }).notNull().default("pending"),
    currency: text("currency").notNull(),
    /** In `currency`, tax included. */
    amount: money("amount").notNull(),
    reason: text("reason").notNull(),
    /** The provider's refund id (re_…), once known. */
    providerRefundId: text("provider_refund_id"),
    /** A refund made by hand: the reference of the transfer back. */
    reference: text("reference"),
    failureReason: text("failure_reason"),
    requestedById: text("requested_by_id"),
    requestedByEmail: text("requested_by_email").notNull(),
    /**
     * The back office's refund form's one-time token (ADR 0505): one refund per form, whatever is
     * posted twice; also the provider's idempotency key. Null for a refund made at the provider.
     */
    formToken: text("form_token"),
    succeededAt: timestamp("succeeded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("refunds_provider_refund_key").on(t.provider, t.providerRefundId),
    uniqueIndex("refunds_form_token_key").on(t.formToken),
    index("refunds_invoice_idx").on(t.invoiceId),
    check("refunds_amount_positive", sql`${t.amount} > 0`),
  ],
);

/**
 * The document of a recorded refund: its own gap-free series `CN-{year}-{seq}` (a row lock on its
 * counter, in the transaction that records the refund), referencing the invoice, with the invoice's
 * frozen buyer and seller. Never changed once written (a trigger refuses updates).
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creditNoteNumber: text("credit_note_number").notNull().unique(),
    creditNoteYear: integer("credit_note_year").notNull(),
    creditNoteSeq: integer("credit_note_seq").notNull(),
    refundId: uuid("refund_id")
      .notNull()
      .references(() => refunds.id),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id),
    currency: text("currency").notNull(),
    /** In `currency`, positive (what is credited): before tax, the tax, the total. */
    subtotal: money("subtotal").notNull(),
    taxRatePercent: numeric("tax_rate_percent", { precision: 5, scale: 2, mode: "number" }).notNull(),
    taxAmount: money("tax_amount").notNull(),
    totalAmount: money("total_amount").notNull(),
    /** The total in USD at the invoice's rate. */
    amountUsd: money("amount_usd").notNull(),
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 8, mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    buyer: jsonb("buyer").$type<InvoiceBuyer>(),
    seller: jsonb("seller").$type<InvoiceSeller>(),
    /** The VAT treatment of the invoice it credits, copied (issue 40). */
    tax: jsonb("tax").$type<DocumentTax>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("credit_notes_year_seq_key").on(t.creditNoteYear, t.creditNoteSeq),
    uniqueIndex("credit_notes_refund_key").on(t.refundId),
    index("credit_notes_invoice_idx").on(t.invoiceId),
    index("credit_notes_client_created_idx").on(t.clientId, t.createdAt),
    index("credit_notes_created_idx").on(t.createdAt),
    check("credit_notes_total_positive", sql`${t.totalAmount} > 0`),
  ],
);

/** The last credit note number given out per year (like invoice_counters). */
export const creditNoteCounters = pgTable("credit_note_counters", {
  year: integer("year").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});

export type Refund = typeof refunds.$inferSelect;
export type CreditNote = typeof creditNotes.$inferSelect;

export type Order = typeof orders.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type PaymentEvent = typeof paymentEvents.$inferSelect;

// ---------------------------------------------------------------------------
// After the sale: an order's brief and its conversation
// (docs/decisions/0512-order-brief-and-conversation.md)
// ---------------------------------------------------------------------------

/** A brief's answers by question key, as the client gave them (trimmed). */
export type BriefAnswers = Record<string, string>;

/**
 * The brief of an order: the client's answers to its service's intake questions, with the questions
 * as they were asked (the owner may change the catalogue's later). One row per order, once answered.
 */
export const orderBriefs = pgTable("order_briefs", {
  orderId: uuid("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  questions: jsonb("questions").$type<IntakeQuestion[]>().notNull(),
  answers: jsonb("answers").$type<BriefAnswers>().notNull(),
  answeredBy: text("answered_by").references(() => user.id, { onDelete: "set null" }),
  /** When the client first answered; `updated_at` is the last correction. */
  answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: updatedAt(),
});

export const messageAuthorRoles = ["client", "owner"] as const;
export type MessageAuthorRole = (typeof messageAuthorRoles)[number];

/** The longest message a client or the owner may write on an order (db/limits.ts). */
export { ORDER_MESSAGE_MAX_CHARS };

/**
 * One message of an order's conversation, by its client or by the owner (any admin). `read_at` is when
 * the other side first saw it: the client for the owner's messages, an admin for the client's.
 */
export const orderMessages = pgTable(
  "order_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    authorRole: text("author_role", { enum: messageAuthorRoles }).notNull(),
    body: text("body").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // An order's thread, oldest first.
    index("order_messages_order_created_idx").on(t.orderId, t.createdAt, t.id),
    // An account's messages: the storage quota sums their attachments' bytes (ADR 0514).
    index("order_messages_author_idx").on(t.authorId),
    // The back office's inbox: unread client messages, newest first.
    index("order_messages_unread_client_idx")
      .on(t.createdAt)
      .where(sql`${t.authorRole} = 'client' and ${t.readAt} is null`),
    check(
      "order_messages_body_length",
      sql`char_length(${t.body}) between 1 and ${sql.raw(String(ORDER_MESSAGE_MAX_CHARS))}`,
    ),
  ],
);

/** Binary data: bytea on PGlite and PostgreSQL alike (Uint8Array in, Uint8Array or Buffer out). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => value,
});

/** The largest attachment accepted, in bytes (db/limits.ts). */
export { ATTACHMENT_MAX_BYTES };

/**
 * A file attached to an order message, kept in the database (so every process and both databases serve
 * it the same way). The content type is what the bytes are, not what the sender said.
 */
export const messageAttachments = pgTable(
  "message_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => orderMessages.id, { onDelete: "cascade" }),
    /** Its place among the message's files (0 to 4), as they were attached. */
    position: integer("position").notNull().default(0),
    /** Sanitised: no path, no control characters, an extension matching the content type. */
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    bytes: bytea("bytes").notNull(),
    /** Hex SHA-256 of the bytes. */
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("message_attachments_message_position_key").on(t.messageId, t.position),
    check(
      "message_attachments_size",
      sql`${t.size} between 1 and ${sql.raw(String(ATTACHMENT_MAX_BYTES))} and octet_length(${t.bytes}) = ${t.size}`,
    ),
  ],
);

export type OrderBrief = typeof orderBriefs.$inferSelect;
export type OrderMessage = typeof orderMessages.$inferSelect;
export type MessageAttachment = typeof messageAttachments.$inferSelect;

// ---------------------------------------------------------------------------
// Notifications, live events and the audit log
// ---------------------------------------------------------------------------

export const notificationTypes = ["info", "success", "warning", "error"] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** In-app notifications of a user (the bell), newest first. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull(),
    type: text("type", { enum: notificationTypes }).notNull().default("info"),
    /** Where the notification leads (an order or invoice page), if anywhere. */
    href: text("href"),
    read: boolean("read").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_created_idx").on(t.userId, t.createdAt)],
);

/**
 * Live events, kept for a short while so a stream that reconnects with Last-Event-ID gets what it
 * missed. Inserting one and `pg_notify` in the same transaction tells every process on commit.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Whose event it is; null for events every signed-in user may see (a catalogue change). */
    userId: text("user_id"),
    kind: text("kind").notNull(),
    entityId: text("entity_id"),
    status: text("status"),
    createdAt: createdAt(),
  },
  (t) => [
    index("live_events_user_id_idx").on(t.userId, t.id),
    index("live_events_created_at_idx").on(t.createdAt),
  ],
);

/** Every change made in the back office: who, what, before, after, when. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_log_entity_idx").on(t.entity, t.entityId), index("audit_log_at_idx").on(t.at)],
);

export type Notification = typeof notifications.$inferSelect;
export type LiveEvent = typeof liveEvents.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;

// ---------------------------------------------------------------------------
// Domain health watch (issue 39; docs/decisions/0540-domain-checker-safety.md, 0541-domain-watch.md)
// ---------------------------------------------------------------------------

export const domainVerdicts = ["ok", "warning", "problem", "not-checked"] as const;
export const domainCheckTriggers = ["schedule", "owner", "client"] as const;

/**
 * A domain a client watches: its registrable name in punycode (`name`) and for people (`display_name`),
 * the DKIM selectors to try, and an expiry typed by the client or owner for a registry without RDAP.
 * `next_check_at` is when the watch job checks it next (daily or weekly by the client's plan, with
 * jitter); `last_report` is the latest report, also kept in domain_checks.
 */
export const watchedDomains = pgTable(
  "watched_domains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    dkimSelectors: jsonb("dkim_selectors").$type<string[]>().notNull().default([]),
    typedExpiry: date("typed_expiry", { mode: "string" }),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }).notNull().defaultNow(),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastVerdict: text("last_verdict", { enum: domainVerdicts }),
    /** Days left on the soonest of the website certificates and the registration, for sorting. */
    lastDaysLeft: integer("last_days_left"),
    lastReport: jsonb("last_report"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("watched_domains_client_name_key").on(t.clientId, t.name),
    index("watched_domains_next_check_idx").on(t.nextCheckAt),
  ],
);

/** Every check of a watched domain: the domain page's history. */
export const domainChecks = pgTable(
  "domain_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    domainId: uuid("domain_id")
      .notNull()
      .references(() => watchedDomains.id, { onDelete: "cascade" }),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
    verdict: text("verdict", { enum: domainVerdicts }).notNull(),
    trigger: text("trigger", { enum: domainCheckTriggers }).notNull(),
    report: jsonb("report").notNull(),
  },
  (t) => [index("domain_checks_domain_checked_idx").on(t.domainId, t.checkedAt)],
);

export const domainAlertFixes = ["ssl", "deliverability", "quote"] as const;

/**
 * An alert on a watched domain (features/domain-checks/alerts.ts): one open per family at most; an
 * expiry threshold (`threshold_key`) raised once ever. `cleared_at` and `cleared_note` say when and why
 * it ended ("Certificate renewed on …", or replaced by a more urgent alert of its family).
 */
export const domainAlerts = pgTable(
  "domain_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    domainId: uuid("domain_id")
      .notNull()
      .references(() => watchedDomains.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    family: text("family").notNull(),
    code: text("code").notNull(),
    thresholdKey: text("threshold_key"),
    severity: text("severity", { enum: ["warning", "problem"] }).notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    fix: text("fix", { enum: domainAlertFixes }).notNull(),
    raisedAt: timestamp("raised_at", { withTimezone: true }).notNull(),
    clearedAt: timestamp("cleared_at", { withTimezone: true }),
    clearedNote: text("cleared_note"),
  },
  (t) => [
    uniqueIndex("domain_alerts_threshold_key").on(t.domainId, t.thresholdKey),
    uniqueIndex("domain_alerts_open_family_key").on(t.domainId, t.family).where(sql`${t.clearedAt} IS NULL`),
    index("domain_alerts_client_idx").on(t.clientId, t.raisedAt),
  ],
);

export type WatchedDomain = typeof watchedDomains.$inferSelect;
export type DomainAlert = typeof domainAlerts.$inferSelect;
