/**
 * Saved currency preferences on every test database: written only for a signed-in user with a client
 * record, a saved choice winning over detection only with auto-detection off, failures never thrown.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { clients, user, userPreferences } from "~/db/schema";
import { currencyForRequest } from "~/features/currency/currency.server";
import {
  loadCurrencyPreference,
  saveChosenCurrencyIfClient,
  saveDetectedCurrencyIfClient,
} from "~/features/currency/preferences.server";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("currency preferences on $name", (database) => {
  let server: TestServer;
  let db: Database;
  beforeAll(async () => {
    server = await startTestServer(database);
    db = server.portico.runtime.database.db;
    await db.insert(user).values([
      { id: "client-1", name: "Ada Client", email: "ada@example.com" },
      { id: "client-2", name: "Bo Client", email: "bo@example.com" },
      { id: "no-client", name: "Cy Nobody", email: "cy@example.com" },
    ]);
    await db.insert(clients).values([
      { id: "client-1", name: "Ada Client", email: "ada@example.com" },
      { id: "client-2", name: "Bo Client", email: "bo@example.com" },
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const rowOf = async (id: string) =>
    (await db.select().from(userPreferences).where(eq(userPreferences.userId, id)))[0] ?? null;

  it("saves the detected currency only for a user with a client record", async () => {
    expect(await saveDetectedCurrencyIfClient(db, "no-client", { currency: "GBP", countryCode: "GB" })).toBe(
      false,
    );
    expect(await rowOf("no-client")).toBeNull();
    expect(await saveDetectedCurrencyIfClient(db, "client-1", { currency: "GBP", countryCode: "GB" })).toBe(
      true,
    );
    expect(await rowOf("client-1")).toMatchObject({
      preferredCurrency: "GBP",
      countryCode: "GB",
      autoDetectCurrency: true,
    });
    // Upsert on user_id: one row, updated.
    expect(await saveDetectedCurrencyIfClient(db, "client-1", { currency: "EUR", countryCode: "DE" })).toBe(
      true,
    );
    const rows = await db.select().from(userPreferences).where(eq(userPreferences.userId, "client-1"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ preferredCurrency: "EUR", countryCode: "DE" });
  });

  it("keeps a chosen currency when detection runs again, and only then lets it win", async () => {
    expect(await saveChosenCurrencyIfClient(db, "client-2", "INR")).toBe(true);
    expect(await saveDetectedCurrencyIfClient(db, "client-2", { currency: "GBP", countryCode: "GB" })).toBe(
      true,
    );
    expect(await loadCurrencyPreference(db, "client-2")).toEqual({
      preferredCurrency: "INR",
      autoDetectCurrency: false,
      countryCode: "GB",
    });
    const services = server.portico.runtime.currency;
    const request = new Request("http://127.0.0.1/", { headers: { "accept-language": "en-GB" } });
    const chosen = await currencyForRequest({
      services,
      db,
      request,
      clientAddress: "127.0.0.1",
      userId: "client-2",
    });
    expect(chosen.currency).toBe("INR");
    expect(chosen.rates).toEqual({ USD: 1, INR: 83.25 });
    expect(chosen.location).toEqual({ country_code: "GB", country_name: "United Kingdom", currency: "GBP" });

    // Turning auto-detection back on: the detected location decides again.
    expect(await saveChosenCurrencyIfClient(db, "client-2", "auto")).toBe(true);
    const detected = await currencyForRequest({
      services,
      db,
      request,
      clientAddress: null,
      userId: "client-2",
    });
    expect(detected.currency).toBe("GBP");
    const visitor = await currencyForRequest({
      services,
      db,
      request: new Request("http://127.0.0.1/"),
      clientAddress: null,
      userId: null,
    });
    expect(visitor.currency).toBe("USD");
  });

  it("reads without writing once the saved row matches what is detected", async () => {
    const services = server.portico.runtime.currency;
    const request = new Request("http://127.0.0.1/", { headers: { "accept-language": "en-IE" } });
    const visit = () =>
      currencyForRequest({ services, db, request, clientAddress: null, userId: "client-1" });
    await visit();
    const first = await rowOf("client-1");
    expect(first).toMatchObject({ preferredCurrency: "EUR", countryCode: "IE", autoDetectCurrency: true });
    for (let i = 0; i < 3; i++) await visit();
    expect((await rowOf("client-1"))!.updatedAt).toEqual(first!.updatedAt);

    // Something changed (another country): written once more.
    await currencyForRequest({
      services,
      db,
      request: new Request("http://127.0.0.1/", { headers: { "accept-language": "en-GB" } }),
      clientAddress: null,
      userId: "client-1",
    });
    expect(await rowOf("client-1")).toMatchObject({ preferredCurrency: "GBP", countryCode: "GB" });

    // With afterResponse (the root loader), the write is handed over instead of awaited.
    const tasks: Array<() => Promise<unknown>> = [];
    await currencyForRequest({
      services,
      db,
      request: new Request("http://127.0.0.1/", { headers: { "accept-language": "en-AU" } }),
      clientAddress: null,
      userId: "client-1",
      afterResponse: (task) => tasks.push(task),
    });
    expect(tasks).toHaveLength(1);
    expect((await rowOf("client-1"))!.countryCode).toBe("GB");
    await tasks[0]!();
    expect((await rowOf("client-1"))!.countryCode).toBe("AU");
  });

  it("never throws: bad input and database failures are logged and ignored", async () => {
    const warn = vi.fn();
    expect(await saveChosenCurrencyIfClient(db, "client-1", "pounds", { warn })).toBe(false);
    expect(
      await saveDetectedCurrencyIfClient(db, "client-1", { currency: "GBP", countryCode: "GBR" }, { warn }),
    ).toBe(false);
    const broken = {
      select: () => {
        throw new Error("connection lost");
      },
    } as unknown as Database;
    expect(
      await saveDetectedCurrencyIfClient(
        broken,
        "client-1",
        { currency: "GBP", countryCode: "GB" },
        { warn },
      ),
    ).toBe(false);
    expect(await loadCurrencyPreference(broken, "client-1", { warn })).toBeNull();
    const services = server.portico.runtime.currency;
    const state = await currencyForRequest({
      services,
      db: broken,
      logger: { warn },
      request: new Request("http://127.0.0.1/", { headers: { "accept-language": "en-AU" } }),
      clientAddress: null,
      userId: "client-1",
    });
    expect(state.currency).toBe("AUD");
    expect(warn).toHaveBeenCalledTimes(6);
  });
});
