/**
 * The billing country as an ISO 3166-1 alpha-2 code (issue 37, item 12; ADR 0504), on the real server
 * and database: migration 0022's data step moves free text that names a country to its code ("United
 * Kingdom", "uk", "GB" → GB, "germany" → DE) and keeps what names none ("Narnia") with no code, which
 * the profile then asks the client to replace; an invoice issued before keeps its frozen text; the
 * profile shows the country's name and a new invoice prints it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { createOrder } from "../support/admin-fixtures";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** Migration 0022's data step, as committed: run again on rows written the way the old profile wrote them. */
const dataStep = readFileSync(path.resolve("drizzle/0023_billing_country_code.sql"), "utf8")
  .split("--> statement-breakpoint")[1]!
  .trim();

describe.each(testDatabases)("the billing country as a code on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.119.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  it("moves text that names a country to its code, flags the rest, and leaves issued invoices as they were", async () => {
    const typed = ["United Kingdom", "uk", " GB ", "germany", "Narnia"];
    const who: Array<Awaited<ReturnType<typeof signedIn>>> = [];
    for (const [i, country] of typed.entries()) {
      const c = await signedIn({ email: `country.${i}.${Date.now()}@example.com`, name: `Country ${i}` });
      await rows(sql`update clients set country = ${country}, country_code = null where id = ${c.id}`);
      who.push(c);
    }
    // An invoice issued before, its buyer copy frozen with the text as typed.
    const order = await createOrder(db(), who[1]!.id);
    await rows(
      sql`update invoices set buyer = ${JSON.stringify({ name: "Country 1", email: "x@example.com", company: null, address: null, country: "uk", taxId: null, phone: null })}::jsonb where id = ${order.invoiceId}`,
    );

    await db().execute(sql.raw(dataStep));

    const after = await rows<{ id: string; country: string | null; country_code: string | null }>(
      sql`select id, country, country_code from clients where id in (${sql.join(
        who.map((c) => sql`${c.id}`),
        sql`, `,
      )})`,
    );
    const of = (i: number) => after.find((r) => r.id === who[i]!.id);
    expect(of(0)).toMatchObject({ country_code: "GB", country: null });
    expect(of(1)).toMatchObject({ country_code: "GB", country: null });
    expect(of(2)).toMatchObject({ country_code: "GB", country: null });
    expect(of(3)).toMatchObject({ country_code: "DE", country: null });
    expect(of(4)).toMatchObject({ country_code: null, country: "Narnia" });
    const [frozen] = await rows<{ country: string }>(
      sql`select buyer->>'country' as country from invoices where id = ${order.invoiceId}`,
    );
    expect(frozen!.country).toBe("uk");

    // The profile names the country from its code; "Narnia" is asked to choose.
    const gb = await who[0]!.session.get("/client/profile");
    expect(await gb.text()).toMatch(/<option value="GB" selected="">United Kingdom<\/option>/);
    const narnia = text(await (await who[4]!.session.get("/client/profile")).text());
    expect(narnia).toContain(
      'You wrote "Narnia", which is not a country we know: choose yours from the list.',
    );

    // Choosing replaces the old text; a code not on the list is refused.
    const profile = { intent: "profile", name: "Country 4", phone: "", company: "" };
    const bad = await who[4]!.session.post("/client/profile", { ...profile, countryCode: "XX" });
    expect(bad.status).toBe(400);
    expect(text(await bad.text())).toContain("Choose your country from the list");
    const ok = await who[4]!.session.post("/client/profile", { ...profile, countryCode: "NP" });
    expect(ok.status).toBe(200);
    const [chosen] = await rows<{ country: string | null; country_code: string }>(
      sql`select country, country_code from clients where id = ${who[4]!.id}`,
    );
    expect(chosen).toEqual({ country: null, country_code: "NP" });

    // A new invoice prints the country's name, not its code.
    const fresh = await createOrder(db(), who[4]!.id);
    const page = text(await (await who[4]!.session.get(`/client/invoice/${fresh.invoiceId}`)).text());
    expect(page).toContain("Nepal");
  });
});
