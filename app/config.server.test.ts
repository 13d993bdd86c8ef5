import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server";

describe("loadConfig", () => {
  it("has working defaults: PGlite under ./data, port 3000, demo business identity", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.database).toEqual({ kind: "pglite", dir: "./data/pglite" });
    expect(c.business.email).toMatch(/@/);
    expect(c.business.hours.weekdays).toBe("Mon-Fri: 9:00 AM - 6:00 PM EST");
    expect(c.authSecret).toBeNull();
  });

  it("switches to PostgreSQL with DATABASE_URL", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://u@127.0.0.1:5432/portico" });
    expect(c.database).toEqual({
      kind: "postgres",
      url: "postgres://u@127.0.0.1:5432/portico",
      connectTimeoutMs: 5000,
      queryTimeoutMs: 10_000,
    });
  });

  it("points PUBLIC_URL at the port the site listens on when it is unset", () => {
    expect(loadConfig({}).publicUrl).toBe("http://localhost:3000");
    expect(loadConfig({ PORT: "4000" }).publicUrl).toBe("http://localhost:4000");
    expect(loadConfig({ PORT: "0" }).publicUrl).toBe("http://localhost:3000");
    expect(loadConfig({ PORT: "4000", PUBLIC_URL: "https://it.example.com" }).publicUrl).toBe(
      "https://it.example.com",
    );
  });

  it("treats empty values as unset and strips a trailing slash from PUBLIC_URL", () => {
    const c = loadConfig({ PORT: "", PUBLIC_URL: "https://it.example.com/" });
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe("https://it.example.com");
  });

  it.each([
    [{ PORT: "eighty" }, /^Invalid configuration: PORT must be a port number/],
    [{ PORT: "70000" }, /^Invalid configuration: PORT must be a port number/],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL must start with postgres:/],
    [{ BUSINESS_EMAIL: "nope" }, /^Invalid configuration: BUSINESS_EMAIL must be an email address/],
    [{ BUSINESS_WHATSAPP: "+1 555" }, /^Invalid configuration: BUSINESS_WHATSAPP must be digits only/],
    [{ LOG_LEVEL: "loud" }, /^Invalid configuration: LOG_LEVEL /],
    [{ AUTH_SECRET: "short" }, /^Invalid configuration: AUTH_SECRET must be at least 32 characters/],
    [{ TRUST_PROXY: "maybe" }, /^Invalid configuration: TRUST_PROXY must be false, a hop count or a comma/],
    [{ TRUST_PROXY: "true" }, /^Invalid configuration: TRUST_PROXY must be a hop count or a list of proxy/],
    [{ TRUST_PROXY: "10.0.0.0/33" }, /^Invalid configuration: TRUST_PROXY .*"10.0.0.0\/33" is neither/],
    [{ TRUST_PROXY: "99" }, /^Invalid configuration: TRUST_PROXY must be at most 16 hops/],
    [
      { DATABASE_QUERY_TIMEOUT_MS: "5" },
      /^Invalid configuration: DATABASE_QUERY_TIMEOUT_MS must be at least 100/,
    ],
  ])("rejects %o with one line naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("takes TRUST_PROXY as Express does: off, a hop count, or trusted proxy addresses", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,fd00::/8" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.7",
      "fd00::/8",
    ]);
  });

  it("requires two-factor of admins only when ADMIN_REQUIRE_2FA says so", () => {
    expect(loadConfig({}).adminRequireTwoFactor).toBe(false);
    expect(loadConfig({ ADMIN_REQUIRE_2FA: "true" }).adminRequireTwoFactor).toBe(true);
    expect(loadConfig({ ADMIN_REQUIRE_2FA: "false" }).adminRequireTwoFactor).toBe(false);
    expect(() => loadConfig({ ADMIN_REQUIRE_2FA: "always" })).toThrow(
      /^Invalid configuration: ADMIN_REQUIRE_2FA must be true or false/,
    );
  });

  it("gives PostgreSQL connect and query timeouts", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://u@127.0.0.1/p", DATABASE_QUERY_TIMEOUT_MS: "1500" });
    expect(c.database).toMatchObject({ kind: "postgres", connectTimeoutMs: 5000, queryTimeoutMs: 1500 });
  });

  it("refuses the test hooks on a server with a public address", () => {
    expect(() => loadConfig({ TEST_HOOKS: "true", PUBLIC_URL: "https://it.example.com" })).toThrow(
      "TEST_HOOKS is only allowed when PUBLIC_URL is a loopback address",
    );
    expect(loadConfig({ TEST_HOOKS: "true", PUBLIC_URL: "http://127.0.0.1:4000" }).testHooks).toBe(true);
    expect(loadConfig({ PUBLIC_URL: "https://it.example.com" }).testHooks).toBe(false);
  });

  it("reads the domain checker's DNS servers and refuses its test settings in production (ADR 0540)", () => {
    expect(loadConfig({}).domainChecks).toMatchObject({
      dnsServers: [],
      allowLoopback: false,
      portOverrides: {},
    });
    const c = loadConfig({
      DNS_SERVERS: "1.1.1.1, 127.0.0.1:5353,[2606:4700::1111]:53,::1",
      DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
      DOMAIN_CHECK_PORTS: "443=8443,25=2525",
    });
    expect(c.domainChecks.dnsServers).toEqual(["1.1.1.1", "127.0.0.1:5353", "[2606:4700::1111]:53", "::1"]);
    expect(c.domainChecks.allowLoopback).toBe(true);
    expect(c.domainChecks.portOverrides).toEqual({ 443: 8443, 25: 2525 });
    expect(c.domainChecks.limits).toEqual({ connectionMs: 5000, domainMs: 20_000, dnsMs: 2000 });
    expect(() => loadConfig({ DNS_SERVERS: "dns.google" })).toThrow(
      /^Invalid configuration: DNS_SERVERS must be a comma-separated list .*"dns.google" is not/,
    );
    expect(() => loadConfig({ DOMAIN_CHECK_PORTS: "80=8080", DOMAIN_CHECK_ALLOW_LOOPBACK: "true" })).toThrow(
      /^Invalid configuration: DOMAIN_CHECK_PORTS must be pairs such as 443=8443/,
    );
    expect(() => loadConfig({ DOMAIN_CHECK_PORTS: "443=8443" })).toThrow(
      "DOMAIN_CHECK_PORTS needs DOMAIN_CHECK_ALLOW_LOOPBACK=true",
    );
    for (const env of [
      { DOMAIN_CHECK_ALLOW_LOOPBACK: "true" },
      { DOMAIN_CHECK_ALLOW_LOOPBACK: "true", DOMAIN_CHECK_PORTS: "25=2525" },
    ]) {
      expect(() => loadConfig({ NODE_ENV: "production", ...env })).toThrow(
        "DOMAIN_CHECK_ALLOW_LOOPBACK, DOMAIN_CHECK_PORTS and DOMAIN_CHECK_CA_FILE are for tests only",
      );
    }
    // A test server (TEST_HOOKS, loopback PUBLIC_URL) runs the production build with them.
    expect(
      loadConfig({
        NODE_ENV: "production",
        TEST_HOOKS: "true",
        PUBLIC_URL: "http://127.0.0.1:3000",
        AUTH_SECRET: "x".repeat(40),
        DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
      }).domainChecks,
    ).toMatchObject({ allowLoopback: true, testServer: true });
    expect(() => loadConfig({ DOMAIN_CHECK_CA_FILE: "/nonexistent/ca.pem" })).toThrow(
      /^Invalid configuration: DOMAIN_CHECK_CA_FILE \/nonexistent\/ca.pem cannot be read/,
    );
    expect(loadConfig({ NODE_ENV: "production", DNS_SERVERS: "9.9.9.9" }).domainChecks.dnsServers).toEqual([
      "9.9.9.9",
    ]);
  });

  it("refuses production on PostgreSQL without AUTH_SECRET", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://127.0.0.1/p" })).toThrow(
      "AUTH_SECRET must be set in production",
    );
    expect(
      loadConfig({
        NODE_ENV: "production",
        DATABASE_URL: "postgres://127.0.0.1/p",
        AUTH_SECRET: "x".repeat(32),
      }).authSecret,
    ).toBe("x".repeat(32));
  });

  it("captures mail without SMTP_URL, with the inbox on outside production only unless enabled", () => {
    const dev = loadConfig({});
    expect(dev.mail.smtpUrl).toBeNull();
    expect(dev.mail.devInboxEnabled).toBe(true);
    expect(dev.mail.from).toBe('"Portico IT Services" <support@portico.example>');
    expect(loadConfig({ NODE_ENV: "production", DEV_MAIL_ENABLED: "true" }).mail.devInboxEnabled).toBe(true);
    const smtp = loadConfig({
      SMTP_URL: "smtps://u:p@mail.example.com:465",
      MAIL_FROM: "Desk <d@x.example>",
    });
    expect(smtp.mail.smtpUrl).toBe("smtps://u:p@mail.example.com:465");
    expect(smtp.mail.from).toBe("Desk <d@x.example>");
    expect(() => loadConfig({ SMTP_URL: "http://mail.example.com" })).toThrow(
      /^Invalid configuration: SMTP_URL must start with smtp:/,
    );
  });

  it("serves the captured-mail inbox in production while no relay is set (npm start), unless PUBLIC_URL is https", () => {
    const inbox = (env: Record<string, string>) =>
      loadConfig({ NODE_ENV: "production", ...env }).mail.devInboxEnabled;
    // `npm start` on a laptop: production mode, no relay. The inbox is the only way to read the mail.
    expect(inbox({})).toBe(true);
    expect(inbox({ PUBLIC_URL: "http://192.168.1.20:3000" })).toBe(true);
    // A relay delivers the mail: no inbox in production.
    expect(inbox({ SMTP_URL: "smtp://mail.example.com" })).toBe(false);
    // A public site (https) without a relay: every reset link would be public, so no inbox unless asked.
    expect(inbox({ PUBLIC_URL: "https://it.example.com" })).toBe(false);
    expect(inbox({ PUBLIC_URL: "https://it.example.com", DEV_MAIL_ENABLED: "true" })).toBe(true);
    // DEV_MAIL_ENABLED=false always wins.
    expect(inbox({ DEV_MAIL_ENABLED: "false" })).toBe(false);
    expect(loadConfig({ DEV_MAIL_ENABLED: "false" }).mail.devInboxEnabled).toBe(false);
    // Outside production the inbox stays on, relay or not (it shows the outbox's delivery status).
    expect(loadConfig({ SMTP_URL: "smtp://mail.example.com" }).mail.devInboxEnabled).toBe(true);
  });

  it("sells through the sandbox by default, with no tax and a 7-day due term", () => {
    const c = loadConfig({});
    expect(c.payments).toMatchObject({
      provider: "sandbox",
      stripeSecretKey: null,
      sandboxWebhookSecret: null,
    });
    expect(c.invoices).toEqual({ taxRatePercent: 0, dueDays: 7 });
    expect(loadConfig({ TAX_RATE_PERCENT: "18", INVOICE_DUE_DAYS: "30" }).invoices).toEqual({
      taxRatePercent: 18,
      dueDays: 30,
    });
    expect(c.plans).toEqual({ renewalNoticeDays: 7 });
    expect(loadConfig({ RENEWAL_NOTICE_DAYS: "14" }).plans).toEqual({ renewalNoticeDays: 14 });
  });

  it("sweeps checkouts pending over 10 minutes every 5 minutes unless told otherwise", () => {
    const c = loadConfig({});
    expect(c.paymentSweepIntervalMs).toBe(300_000);
    expect(c.paymentSweepPendingAfterMs).toBe(600_000);
    const quick = loadConfig({ PAYMENT_SWEEP_INTERVAL_MS: "200", PAYMENT_SWEEP_PENDING_AFTER_MS: "0" });
    expect(quick.paymentSweepIntervalMs).toBe(200);
    expect(quick.paymentSweepPendingAfterMs).toBe(0);
    expect(() => loadConfig({ PAYMENT_SWEEP_PENDING_AFTER_MS: "-1" })).toThrow(
      /PAYMENT_SWEEP_PENDING_AFTER_MS must be at least 0/,
    );
    expect(() => loadConfig({ PAYMENT_SWEEP_PENDING_AFTER_MS: "ten" })).toThrow(
      /PAYMENT_SWEEP_PENDING_AFTER_MS must be a number of milliseconds/,
    );
  });

  it("names the bad payment or invoice variable", () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: "paypal" })).toThrow(
      /PAYMENT_PROVIDER must be sandbox or stripe/,
    );
    expect(() => loadConfig({ TAX_RATE_PERCENT: "120" })).toThrow(
      /TAX_RATE_PERCENT must be between 0 and 100/,
    );
    expect(() => loadConfig({ INVOICE_DUE_DAYS: "1.5" })).toThrow(
      /INVOICE_DUE_DAYS must be a whole number of days/,
    );
    expect(() => loadConfig({ RENEWAL_NOTICE_DAYS: "90" })).toThrow(
      /RENEWAL_NOTICE_DAYS must be between 0 and 60/,
    );
    expect(() => loadConfig({ PAYMENT_PROVIDER: "stripe" })).toThrow(
      /PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "pk_test_123" })).toThrow(
      /STRIPE_SECRET_KEY must be a Stripe secret key/,
    );
    const stripe = loadConfig({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
    });
    expect(stripe.payments).toMatchObject({ provider: "stripe", stripeSecretKey: "sk_test_123" });
  });

  it("schedules no backups until BACKUP_DIR is set, then daily keeping 14 files unless told otherwise", () => {
    expect(loadConfig({}).backups).toEqual({ dir: null, intervalMs: 86_400_000, keep: 14 });
    expect(
      loadConfig({ BACKUP_DIR: "/var/backups/portico", BACKUP_INTERVAL_HOURS: "6", BACKUP_KEEP: "28" })
        .backups,
    ).toEqual({ dir: "/var/backups/portico", intervalMs: 21_600_000, keep: 28 });
    // Fractions of an hour: 0.5 is every 30 minutes.
    expect(loadConfig({ BACKUP_INTERVAL_HOURS: "0.5" }).backups.intervalMs).toBe(1_800_000);
  });

  it.each([
    [
      { BACKUP_INTERVAL_HOURS: "daily" },
      /^Invalid configuration: BACKUP_INTERVAL_HOURS must be a number of hours/,
    ],
    [{ BACKUP_INTERVAL_HOURS: "0" }, /^Invalid configuration: BACKUP_INTERVAL_HOURS must be at least 0.0003/],
    [
      { BACKUP_INTERVAL_HOURS: "-1" },
      /^Invalid configuration: BACKUP_INTERVAL_HOURS must be at least 0.0003/,
    ],
    [{ BACKUP_KEEP: "0" }, /^Invalid configuration: BACKUP_KEEP must be at least 1/],
    [{ BACKUP_KEEP: "2.5" }, /^Invalid configuration: BACKUP_KEEP must be a whole number of files/],
  ])("refuses the backup setting %o naming it", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("keeps tax documents 10 years after an account's deletion unless RETENTION_YEARS says otherwise", () => {
    expect(loadConfig({}).retentionYears).toBe(10);
    expect(loadConfig({ RETENTION_YEARS: "7" }).retentionYears).toBe(7);
    expect(() => loadConfig({ RETENTION_YEARS: "0" })).toThrow(
      /^Invalid configuration: RETENTION_YEARS must be at least 1/,
    );
    expect(() => loadConfig({ RETENTION_YEARS: "ten" })).toThrow(
      /^Invalid configuration: RETENTION_YEARS must be a whole number of years/,
    );
  });

  it("keeps the flat tax outside the EU and decides the EU seller's VAT mode from its settings (issue 40)", () => {
    expect(loadConfig({}).tax).toEqual({
      mode: { kind: "flat", ratePercent: 0, country: null },
      registrationId: null,
      taxNumber: null,
      viesUrl: "https://ec.europa.eu/taxation_customs/vies/rest-api",
    });
    expect(loadConfig({ BUSINESS_COUNTRY: "us", TAX_RATE_PERCENT: "8" }).tax.mode).toEqual({
      kind: "flat",
      ratePercent: 8,
      country: "US",
    });
    expect(
      loadConfig({ BUSINESS_COUNTRY: "de", BUSINESS_TAX_ID: "DE 123 456 789", VAT_RATE_PERCENT: "19" }).tax
        .mode,
    ).toEqual({ kind: "eu-standard", country: "DE", vatNumber: "DE123456789", ratePercent: 19 });
    // Greece's number is EL in VIES.
    expect(
      loadConfig({ BUSINESS_COUNTRY: "GR", BUSINESS_TAX_ID: "GR123456789", VAT_RATE_PERCENT: "24" }).tax.mode,
    ).toMatchObject({ vatNumber: "EL123456789" });
    expect(
      loadConfig({
        BUSINESS_COUNTRY: "DE",
        BUSINESS_TAX_NUMBER: "12/345/67890",
        VAT_EXEMPT_REASON: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
        BUSINESS_REGISTRATION_ID: "HRB 12345",
        VIES_URL: "http://127.0.0.1:9999/vies/",
      }).tax,
    ).toEqual({
      mode: {
        kind: "eu-exempt",
        country: "DE",
        vatNumber: null,
        taxNumber: "12/345/67890",
        reason: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
      },
      registrationId: "HRB 12345",
      taxNumber: "12/345/67890",
      viesUrl: "http://127.0.0.1:9999/vies",
    });
  });

  it("refuses an EU seller's settings an invoice could not be issued with, each in words", () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{ BUSINESS_COUNTRY: "DE" }, /BUSINESS_COUNTRY=DE is in the EU: set VAT_RATE_PERCENT/],
      [
        { BUSINESS_COUNTRY: "DE", TAX_RATE_PERCENT: "19" },
        /set VAT_RATE_PERCENT instead of TAX_RATE_PERCENT/,
      ],
      [{ BUSINESS_COUNTRY: "DE", VAT_RATE_PERCENT: "19" }, /needs its VAT number in BUSINESS_TAX_ID/],
      [
        { BUSINESS_COUNTRY: "DE", BUSINESS_TAX_ID: "FR12123456789", VAT_RATE_PERCENT: "20" },
        /is not a VAT number of BUSINESS_COUNTRY=DE/,
      ],
      [
        { BUSINESS_COUNTRY: "DE", BUSINESS_TAX_ID: "DE12", VAT_RATE_PERCENT: "19" },
        /BUSINESS_TAX_ID “DE12” is not a DE VAT number/,
      ],
      [
        { BUSINESS_COUNTRY: "DE", VAT_EXEMPT_REASON: "§19" },
        /must name its VAT number \(BUSINESS_TAX_ID\) or tax number/,
      ],
      [
        {
          BUSINESS_COUNTRY: "DE",
          BUSINESS_TAX_ID: "DE123456789",
          VAT_EXEMPT_REASON: "§19",
          VAT_RATE_PERCENT: "19",
        },
        /not both/,
      ],
      [{ VAT_RATE_PERCENT: "19" }, /apply to a seller in the EU: set BUSINESS_COUNTRY/],
      [{ BUSINESS_COUNTRY: "Germany" }, /BUSINESS_COUNTRY must be a two-letter country code/],
    ];
    for (const [env, message] of refusals)
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
