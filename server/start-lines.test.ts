import pino from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import { ADMIN_HINT, printStartLines, startLines } from "./start-lines";

const texts = (env: Record<string, string>, port = 3000, hasAdmin = true) =>
  startLines({ config: loadConfig(env), port, hasAdmin }).map((l) => l.text);

describe("startLines", () => {
  it("tells a newcomer's `npm start` where the site is, where the captured mail is, and how to make an admin", () => {
    const lines = startLines({ config: loadConfig({ NODE_ENV: "production" }), port: 3000, hasAdmin: false });
    expect(lines.map((l) => l.text)).toEqual([
      "Portico listening on http://localhost:3000",
      "No SMTP_URL: mail is captured, not sent; read it at http://localhost:3000/dev/mail",
      "Anyone who can reach this site can read every email at http://localhost:3000/dev/mail, password-reset links included: set SMTP_URL before the site faces the public (docs/deploy.md)",
      "No admin yet: npm run admin:create -- --email you@example.com",
    ]);
    // The first record keeps the message tools wait for; the address is in its fields.
    expect(lines[0]).toMatchObject({
      msg: "Portico listening",
      fields: { port: 3000, url: "http://localhost:3000" },
    });
    expect(lines.map((l) => l.level)).toEqual(["info", "info", "warn", "info"]);
  });

  it("uses the port actually listened on, and PUBLIC_URL when it is another machine", () => {
    expect(texts({ NODE_ENV: "production" }, 41234)[1]).toBe(
      "No SMTP_URL: mail is captured, not sent; read it at http://localhost:41234/dev/mail",
    );
    expect(texts({ NODE_ENV: "production", PUBLIC_URL: "http://192.168.1.20:3000" }).slice(0, 2)).toEqual([
      "Portico listening on http://localhost:3000 (public address http://192.168.1.20:3000)",
      "No SMTP_URL: mail is captured, not sent; read it at http://192.168.1.20:3000/dev/mail",
    ]);
  });

  it("says nothing about an inbox once a relay is set, and never prints the relay's URL", () => {
    const lines = texts({ NODE_ENV: "production", SMTP_URL: "smtps://user:s3cret@mail.example.com" });
    expect(lines).toEqual(["Portico listening on http://localhost:3000", "Mail is sent through SMTP_URL"]);
    expect(lines.join("\n")).not.toContain("s3cret");
  });

  it("warns loudly on an https site without a relay, where the inbox stays off", () => {
    const lines = texts({ NODE_ENV: "production", PUBLIC_URL: "https://it.example.com" });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^WARNING: no SMTP_URL, so no email leaves this machine/);
    expect(lines[1]).toContain("DEV_MAIL_ENABLED=true would show it to anyone");
  });

  it("says the mail is hidden when DEV_MAIL_ENABLED=false, and keeps development quiet about exposure", () => {
    expect(texts({ NODE_ENV: "production", DEV_MAIL_ENABLED: "false" })[1]).toBe(
      "No SMTP_URL: mail is captured, not sent, and not shown (DEV_MAIL_ENABLED=false): set SMTP_URL to send it",
    );
    expect(texts({ NODE_ENV: "development" })).toEqual([
      "Portico listening on http://localhost:3000",
      "No SMTP_URL: mail is captured, not sent; read it at http://localhost:3000/dev/mail",
    ]);
  });

  it("warns when TRUST_PROXY is set and HOST takes connections from other machines (issue 35)", () => {
    const relay = { NODE_ENV: "production", SMTP_URL: "smtp://mail.example.com" };
    const proxied = texts({ ...relay, TRUST_PROXY: "1" });
    expect(proxied).toHaveLength(3);
    expect(proxied[2]).toMatch(/^WARNING: TRUST_PROXY is set but HOST=0\.0\.0\.0 also takes connections/);
    expect(texts({ ...relay, TRUST_PROXY: "loopback", HOST: "192.168.1.20" })[2]).toContain(
      "HOST=192.168.1.20",
    );
    const warning = startLines({
      config: loadConfig({ ...relay, TRUST_PROXY: "1" }),
      port: 3000,
      hasAdmin: true,
    });
    expect(warning[2]).toMatchObject({ level: "warn", fields: { host: "0.0.0.0" } });
    // Behind a proxy on this machine, or without TRUST_PROXY: nothing to say.
    for (const HOST of ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"]) {
      expect(texts({ ...relay, TRUST_PROXY: "1", HOST }), HOST).toHaveLength(2);
    }
    expect(texts({ ...relay, HOST: "0.0.0.0" })).toHaveLength(2);
    expect(texts({ ...relay, TRUST_PROXY: "false" })).toHaveLength(2);
  });

  it("mentions ADMIN_EMAILS when some are listed", () => {
    expect(texts({ ADMIN_EMAILS: "owner@example.com" }, 3000, false).at(-1)).toBe(
      `${ADMIN_HINT} (or register and verify an address listed in ADMIN_EMAILS)`,
    );
  });
});

describe("printStartLines", () => {
  const lines = startLines({ config: loadConfig({ NODE_ENV: "production" }), port: 3000, hasAdmin: false });

  it("writes plain sentences to a terminal, through the logger's stream after what it logged before", () => {
    const written: string[] = [];
    const logger = pino({ level: "info" }, { write: (t: string) => written.push(t) });
    logger.info("database ready");
    printStartLines(lines, logger, true);
    expect(written).toHaveLength(2);
    expect(JSON.parse(written[0]!).msg).toBe("database ready");
    expect(written[1]!.split("\n")).toEqual([...lines.map((l) => l.text), ""]);
  });

  it("writes log records elsewhere, one JSON object per line", () => {
    const records: Array<Record<string, unknown>> = [];
    const logger = pino({ level: "info" }, { write: (l: string) => records.push(JSON.parse(l)) });
    printStartLines(lines, logger, false);
    expect(records.map((r) => r.msg)).toEqual(lines.map((l) => l.msg));
    expect(records[0]).toMatchObject({ msg: "Portico listening", port: 3000, url: "http://localhost:3000" });
    expect(records[1]).toMatchObject({ level: 30, inbox: "http://localhost:3000/dev/mail" });
    expect(records[2]).toMatchObject({ level: 40 });
  });

  it("says an EU seller's VAT mode, and nothing more for a seller outside the EU (issue 40)", () => {
    const relay = { SMTP_URL: "smtp://relay.example.com:587" };
    expect(texts(relay)).toHaveLength(2);
    expect(texts({ ...relay, BUSINESS_COUNTRY: "US", TAX_RATE_PERCENT: "8" })).toHaveLength(2);
    expect(
      texts({ ...relay, BUSINESS_COUNTRY: "DE", BUSINESS_TAX_ID: "DE123456789", VAT_RATE_PERCENT: "19" })[2],
    ).toBe(
      "tax: EU seller in DE at 19% VAT; reverse charge for businesses elsewhere in the EU, none outside it",
    );
    expect(
      texts({
        ...relay,
        BUSINESS_COUNTRY: "DE",
        BUSINESS_TAX_NUMBER: "12/345/67890",
        VAT_EXEMPT_REASON: "§ 19 UStG",
      })[2],
    ).toBe("tax: EU seller in DE, exempt from VAT (§ 19 UStG)");
  });
});
