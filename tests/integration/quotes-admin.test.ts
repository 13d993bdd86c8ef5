/**
 * The owner's quotes (issue "quotes", item 2) through the real HTTP server, as a browser without
 * JavaScript posts the editor: a draft with a catalogue line (priced from the catalogue, whatever price
 * is posted with it) and a free line, a discount and a deposit, its amounts exact to the cent; refused
 * drafts (400 with the message, nothing typed lost); sending (Q-{year}-{seq}, the client's bell and
 * email, or the requester's email with a register link); a sent quote frozen (409 from the page, the
 * database's trigger below it); a revision that supersedes it; N drafts sent at once numbered without
 * a gap or a duplicate; the audit rows; and 404 for anyone but the owner on every /admin/quotes route.
 * A quote for a client whose account email is not the quote's is refused (issue 35, item 5).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { quoteRequests } from "~/db/schema";
import { acceptQuote, declineQuote } from "~/features/quotes/quote-acceptance.server";
import { expireQuotes } from "~/features/quotes/quote-expiry.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const OWNER = "owner.quotes-admin@example.com";
const YEAR = new Date().getUTCFullYear();
/** The page's <main> only (no styles or scripts): shorter failure messages, the same assertions. */
const main = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>") + 7);
/** The words of some HTML, tags gone. */
const words = (html: string) => text(html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.each(testDatabases)("the owner's quotes on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let adaId: string;
  /** The hosting-support service: its standard package is $25 in the catalogue. */
  let serviceId: string;
  const { db, newSession, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.104.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      BUSINESS_EMAIL: OWNER,
      TAX_RATE_PERCENT: "8.25",
    });
    ({ session: admin } = await signedIn({ email: "boss.quotes@example.com", name: "Boss", role: "admin" }));
    ({ id: adaId } = await signedIn({ email: "ada.quotes@example.com", name: "Ada Lovelace" }));
    const [service] = await rows<{ id: string; price: string }>(
      sql`select id, pricing->>'standard' as price from services where slug = 'hosting-support'`,
    );
    expect(Number(service!.price)).toBe(25);
    serviceId = service!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The editor's fields: the recipient, the money terms, then `lines` as indexed rows. */
  function editor(fields: Record<string, string>, lines: Array<Record<string, string>>) {
    const body: Record<string, string> = {
      requestId: "",
      clientId: "",
      name: "",
      email: "",
      company: "",
      discount: "",
      depositPercent: "",
      validUntil: inDays(30),
      terms: "Half up front. The rest on completion.",
      ...fields,
    };
    lines.forEach((line, i) => {
      for (const [k, v] of Object.entries(line)) body[`lines.${i}.${k}`] = v;
    });
    return body;
  }

  const adaQuote = (intent: string) =>
    editor({ intent, clientId: adaId, discount: "$50", depositPercent: "30" }, [
      // The form has no price for a catalogue line; one posted anyway is not read.
      { kind: "catalogue", item: `${serviceId}:standard`, quantity: "2", unitPrice: "1.00" },
      { kind: "free", item: "", description: "On-site workshop", quantity: "3", unitPrice: "333.33" },
      { kind: "catalogue", item: "", description: "", quantity: "1", unitPrice: "" },
    ]);

  async function newDraft(body: Record<string, string>): Promise<string> {
    const res = await admin.post("/admin/quotes/new", body);
    expect(res.status, text(main(await res.clone().text())).slice(0, 500)).toBe(302);
    const to = location(res);
    expect(to).toMatch(/^\/admin\/quotes\/[0-9a-f-]{36}\?done=(saved|sent)$/);
    return to.slice("/admin/quotes/".length).split("?")[0]!;
  }

  const quoteRow = async (id: string) =>
    (
      await rows<{
        status: string;
        quote_number: string | null;
        client_id: string | null;
        lines: Array<{ kind: string; unitPriceUsd: number; quantity: number }>;
        subtotal_usd: string;
        discount_usd: string;
        tax_rate_percent: string;
        tax_usd: string;
        total_usd: string;
        deposit_percent: number | null;
        supersedes_id: string | null;
      }>(sql`select * from quotes where id = ${id}`)
    )[0]!;

  const auditActions = async (id: string) =>
    (
      await rows<{ action: string }>(
        sql`select action from audit_log where entity = 'quote' and entity_id = ${id} order by at, action`,
      )
    ).map((r) => r.action);

  let adaQuoteId: string;
  /** The requester's quote (Q-…-0002) and the revision of Ada's (Q-…-0003). */
  let linusQuoteId: string;
  let revisionId: string;

  it("writes a draft for a client: the catalogue line priced from the catalogue, the free line as typed, amounts exact", async () => {
    const blank = await admin.get("/admin/quotes/new");
    expect(blank.status).toBe(200);
    const form = text(main(await blank.text()));
    expect(form).toContain('name="lines.0.kind"');
    expect(form).toContain(`value="${serviceId}:standard"`);
    expect(form).toContain("Hosting & Control Panel Support — Standard, $25.00");
    expect(form).toContain(`value="${inDays(30)}"`);
    expect(form).toContain("Ada Lovelace <ada.quotes@example.com>");

    adaQuoteId = await newDraft(adaQuote("save"));
    const row = await quoteRow(adaQuoteId);
    // 2 × $25.00 (the catalogue's) + 3 × $333.33 = $1,049.99; less $50.00 = $999.99; tax 8.25% of
    // that is $82.499… → $82.50; total $1,082.49. Deposit 30%: $324.747 → $324.75; balance $757.74.
    expect(row.lines.map((l) => [l.kind, l.quantity, l.unitPriceUsd])).toEqual([
      ["catalogue", 2, 25],
      ["free", 3, 333.33],
    ]);
    expect(
      [row.subtotal_usd, row.discount_usd, row.tax_rate_percent, row.tax_usd, row.total_usd].map(Number),
    ).toEqual([1049.99, 50, 8.25, 82.5, 1082.49]);
    expect(row).toMatchObject({ status: "draft", quote_number: null, client_id: adaId, deposit_percent: 30 });

    const page = await admin.get(`/admin/quotes/${adaQuoteId}?done=saved`);
    expect(page.status).toBe(200);
    const html = main(await page.text());
    const shown = text(html);
    expect(shown).toContain("The draft is saved.");
    expect(shown).toContain("Draft quote for Ada Lovelace");
    for (const figure of [
      "$1,049.99",
      "−$50.00",
      "Tax (8.25%)",
      "$82.50",
      "$1,082.49",
      "Deposit (30%)",
      "$324.75",
      "$757.74",
    ])
      expect(shown).toContain(figure);
    // The editor shows the saved lines again; the catalogue line's price field is empty.
    const priceField = html.match(/<input[^>]*name="lines\.0\.unitPrice"[^>]*>/)?.[0] ?? "";
    expect(priceField).toContain('value=""');
    expect(html).toMatch(/<option value="[^"]+:standard" selected="">/);
    expect(html).toContain("On-site workshop");
    expect(await auditActions(adaQuoteId)).toEqual(["quote.draft"]);

    // Saved again from its page, changed: the same quote, re-priced.
    const again = await admin.post(
      `/admin/quotes/${adaQuoteId}`,
      editor({ intent: "save", clientId: adaId, depositPercent: "30" }, [
        { kind: "catalogue", item: `${serviceId}:standard`, quantity: "2", unitPrice: "999" },
        { kind: "free", description: "On-site workshop", quantity: "3", unitPrice: "333.33" },
      ]),
    );
    expect(again.status).toBe(200);
    expect(text(main(await again.text()))).toContain("The draft is saved.");
    // No discount now: $1,049.99 + 8.25% ($86.62) = $1,136.61.
    const changed = await quoteRow(adaQuoteId);
    expect([changed.discount_usd, changed.tax_usd, changed.total_usd].map(Number)).toEqual([
      0, 86.62, 1136.61,
    ]);
    // Back as first written, for what follows.
    expect((await admin.post(`/admin/quotes/${adaQuoteId}`, adaQuote("save"))).status).toBe(200);
    expect(Number((await quoteRow(adaQuoteId)).total_usd)).toBe(1082.49);
    expect(await auditActions(adaQuoteId)).toEqual(["quote.draft", "quote.draft", "quote.draft"]);
  });

  it("refuses a draft it cannot take with 400 and the reason, keeping what was typed", async () => {
    const before = (await rows<{ n: number }>(sql`select count(*)::int as n from quotes`))[0]!.n;
    const free = (extra: Record<string, string>) => ({
      kind: "free",
      description: "Keep this description",
      quantity: "1",
      unitPrice: "10",
      ...extra,
    });
    const cases: Array<[Record<string, string>, Array<Record<string, string>>, string]> = [
      [{ name: "Ann", email: "ann@example.com" }, [free({ unitPrice: "" })], "Price each free line."],
      [
        { name: "Ann", email: "ann@example.com" },
        [free({ unitPrice: "ten" })],
        "Enter the amount as a number",
      ],
      [{ name: "Ann", email: "ann@example.com" }, [free({ quantity: "0" })], "Line 1: the quantity is"],
      [{ name: "Ann", email: "not-an-email" }, [free({})], "Enter the recipient's email address."],
      [{ name: "Ann", email: "ann@example.com" }, [], "Add at least one line."],
      [
        { name: "Ann", email: "ann@example.com" },
        [{ kind: "catalogue", item: "", description: "Keep this description" }],
        "Choose a service for each catalogue line.",
      ],
      [
        { name: "Ann", email: "ann@example.com" },
        [{ kind: "catalogue", item: `${serviceId}:gold`, quantity: "1" }],
        "A catalogue line names a package the catalogue does not have.",
      ],
      [
        { name: "Ann", email: "ann@example.com", discount: "5000" },
        [free({})],
        "The discount is more than the lines add up to.",
      ],
      [
        { name: "Ann", email: "ann@example.com", depositPercent: "100" },
        [free({})],
        "A deposit is between 1 and 99 percent.",
      ],
      [{ clientId: "no-such-client" }, [free({})], "No such client."],
      [
        { name: "Ann", email: "ann@example.com" },
        // Only the catalogue's own packages: not a name every object has.
        [{ kind: "catalogue", item: `${serviceId}:constructor`, quantity: "1" }],
        "A catalogue line names a package the catalogue does not have.",
      ],
      [
        { name: "Ann", email: "ann@example.com" },
        [free({ unitPrice: "99,999,999,999", quantity: "100000" })],
        "The quote adds up to more than one quote can hold.",
      ],
      [
        { name: "Ann\u0000", email: "ann@example.com" },
        [free({})],
        "The recipient's name contains a character that is not allowed.",
      ],
      [
        { name: "Ann", email: "ann@example.com", validUntil: "0000-01-01" },
        [free({})],
        "Enter the date the quote is valid until.",
      ],
      [
        { name: "Ann", email: "ann@example.com", requestId: "7d4f3a52-0000-4000-8000-000000000000" },
        [free({})],
        "No such quote request.",
      ],
      [
        { name: "Ann", email: "ann@example.com", validUntil: inDays(-2), intent: "send" },
        [free({})],
        "The valid-until date has passed: change it before sending.",
      ],
      // Issue 35, item 5: a quote for a client goes to that client's own email, never to another.
      [
        { clientId: adaId, name: "Ada Lovelace", email: "victim@example.com", intent: "send" },
        [free({})],
        "This client's account email is ada.quotes@example.com, not victim@example.com: a quote for a client goes to their account's email. Change the email, or save the quote without the client.",
      ],
    ];
    for (const [fields, lines, message] of cases) {
      const res = await admin.post("/admin/quotes/new", editor({ intent: "save", ...fields }, lines));
      const html = main(await res.text());
      expect(res.status, message).toBe(400);
      expect(text(html), message).toContain(message);
      expect(html).toContain('role="alert"');
      if (lines[0]?.description) expect(html, message).toContain("Keep this description");
    }
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from quotes`))[0]!.n).toBe(before);
  });

  it("sends the client's quote: numbered Q-{year}-0001, the bell and an email with its link; frozen from then on", async () => {
    const res = await admin.post(`/admin/quotes/${adaQuoteId}`, adaQuote("send"));
    const number = `Q-${YEAR}-0001`;
    expect(res.status).toBe(200);
    expect(text(main(await res.text()))).toContain(`Quote ${number} was sent to ada.quotes@example.com.`);
    const row = await quoteRow(adaQuoteId);
    expect(row).toMatchObject({ status: "sent", quote_number: number });
    expect(Number(row.total_usd)).toBe(1082.49);

    const [bell] = await rows<{ title: string; message: string; href: string }>(
      sql`select title, message, href from notifications where user_id = ${adaId} and title = 'New Quote'`,
    );
    expect(bell).toEqual({
      title: "New Quote",
      message: `Quote ${number} for $1,082.49 is ready for you.`,
      href: `/client/quotes/${adaQuoteId}`,
    });
    const [mail] = await rows<{ subject: string; text: string }>(
      sql`select subject, text from outbox_emails where kind = 'quote' and to_address = 'ada.quotes@example.com'`,
    );
    expect(mail!.subject).toBe(`Your quote ${number}`);
    expect(mail!.text).toContain(`/client/quotes/${adaQuoteId}`);
    expect(mail!.text).toContain("deposit of 30%");

    // The page is read only now, with its number, amounts, terms and Revise.
    const page = await admin.get(`/admin/quotes/${adaQuoteId}`);
    const html = main(await page.text());
    expect(text(html)).toContain(`Quote ${number}`);
    expect(text(html)).toContain("Half up front. The rest on completion.");
    expect(html).not.toContain('name="lines.0.kind"');
    expect(html).toContain('value="revise"');
    const list = text(main(await (await admin.get("/admin/quotes")).text()));
    expect(list).toContain(number);
    expect(list).toContain("$1,082.49");

    // A sent quote is never edited: not from its page, nor by sending it again...
    const save = await admin.post(`/admin/quotes/${adaQuoteId}`, adaQuote("save"));
    expect(save.status).toBe(409);
    expect(text(main(await save.text()))).toContain(`Quote ${number} was sent: revise it instead.`);
    expect((await admin.post(`/admin/quotes/${adaQuoteId}`, adaQuote("send"))).status).toBe(409);
    // ...nor behind the application's back: the database refuses it.
    const refused = await db()
      .execute(sql`update quotes set lines = '[]'::jsonb, total_usd = 1 where id = ${adaQuoteId}`)
      .then(
        () => "updated",
        (e: Error) => `${e.message} ${String((e as { cause?: unknown }).cause ?? "")}`,
      );
    expect(refused).toContain(`quote ${number} was sent and cannot be changed`);
    expect(Number((await quoteRow(adaQuoteId)).total_usd)).toBe(1082.49);
    // Send saved what was on screen, then sent it.
    expect(await auditActions(adaQuoteId)).toEqual([
      "quote.draft",
      "quote.draft",
      "quote.draft",
      "quote.draft",
      "quote.send",
    ]);
  });

  it("writes a quote from a request for someone without an account and sends it at once: an email inviting them to register", async () => {
    const [request] = await db()
      .insert(quoteRequests)
      .values({
        name: "Linus Requester",
        email: "linus.requester@example.com",
        company: "Penguin Works",
        services: [],
        description: "Nightly backups for 12 laptops, kept for 90 days.",
        source: "site",
      })
      .returning();
    const list = main(await (await admin.get("/admin/quotes")).text());
    expect(list).toContain(`href="/admin/quotes/new?request=${request!.id}"`);
    expect(text(list)).toContain("Write a quote");

    const prefilled = text(main(await (await admin.get(`/admin/quotes/new?request=${request!.id}`)).text()));
    expect(prefilled).toContain("New quote for Linus Requester");
    expect(prefilled).toContain('value="linus.requester@example.com"');
    expect(prefilled).toContain('value="Penguin Works"');
    expect(prefilled).toContain(`name="requestId" value="${request!.id}"`);
    expect(prefilled).toMatch(
      /name="lines\.0\.description"[^>]*>Nightly backups for 12 laptops, kept for 90 days\./,
    );
    expect((await admin.get("/admin/quotes/new?request=7d4f3a52-0000-4000-8000-000000000000")).status).toBe(
      404,
    );

    const id = await newDraft(
      editor(
        {
          intent: "send",
          requestId: request!.id,
          name: "Linus Requester",
          email: "linus.requester@example.com",
          company: "Penguin Works",
        },
        [{ kind: "free", description: "Backup setup, 12 laptops", quantity: "12", unitPrice: "45" }],
      ),
    );
    linusQuoteId = id;
    const number = `Q-${YEAR}-0002`;
    const page = text(main(await (await admin.get(`/admin/quotes/${id}?done=sent`)).text()));
    expect(page).toContain(`Quote ${number} was sent to linus.requester@example.com.`);
    // 12 × $45 = $540.00, tax 8.25% = $44.55.
    expect(page).toContain("$584.55");
    expect(page).toContain("None yet: invited to register");
    expect(await quoteRow(id)).toMatchObject({ status: "sent", quote_number: number, client_id: null });
    const [req] = await rows<{ status: string }>(
      sql`select status from quote_requests where id = ${request!.id}`,
    );
    expect(req!.status).toBe("quoted");
    const [mail] = await rows<{ subject: string; text: string }>(
      sql`select subject, text from outbox_emails where kind = 'quote' and to_address = 'linus.requester@example.com'`,
    );
    expect(mail!.subject).toBe(`Your quote ${number}`);
    expect(mail!.text).toContain("/client/register");
    expect(mail!.text).not.toContain(`/client/quotes/${id}`);
    expect(await auditActions(id)).toEqual(["quote.draft", "quote.send"]);
  });

  it("revises a sent quote: a new draft, which supersedes it when sent", async () => {
    const res = await admin.post(`/admin/quotes/${adaQuoteId}`, { intent: "revise" });
    expect(res.status).toBe(302);
    const to = location(res);
    expect(to).toMatch(/^\/admin\/quotes\/[0-9a-f-]{36}\?done=revised$/);
    revisionId = to.slice("/admin/quotes/".length).split("?")[0]!;
    const page = await admin.get(to);
    const html = main(await page.text());
    expect(text(html)).toContain(`A revision of Q-${YEAR}-0001 is ready to edit.`);
    expect(html).toContain("On-site workshop");
    expect(html).toContain('name="lines.0.kind"');
    expect(await quoteRow(revisionId)).toMatchObject({ status: "draft", supersedes_id: adaQuoteId });
    expect(await auditActions(revisionId)).toEqual(["quote.revise"]);
    // Until the revision is sent, the first quote stands.
    expect((await quoteRow(adaQuoteId)).status).toBe("sent");

    const sent = await admin.post(
      `/admin/quotes/${revisionId}`,
      editor({ intent: "send", clientId: adaId, depositPercent: "30" }, [
        { kind: "catalogue", item: `${serviceId}:standard`, quantity: "2" },
        { kind: "free", description: "On-site workshop", quantity: "2", unitPrice: "333.33" },
      ]),
    );
    expect(sent.status).toBe(200);
    expect(text(main(await sent.text()))).toContain(
      `Quote Q-${YEAR}-0003 was sent to ada.quotes@example.com.`,
    );
    expect((await quoteRow(adaQuoteId)).status).toBe("superseded");
    const old = main(await (await admin.get(`/admin/quotes/${adaQuoteId}`)).text());
    expect(text(old)).toContain("Revised by");
    expect(old).toContain(`href="/admin/quotes/${revisionId}"`);
    expect(old).not.toContain('value="revise"');
    // A superseded quote is revised no more.
    expect((await admin.post(`/admin/quotes/${adaQuoteId}`, { intent: "revise" })).status).toBe(409);
    expect(await auditActions(revisionId)).toEqual(["quote.revise", "quote.draft", "quote.send"]);
  });

  it("numbers drafts sent at the same moment consecutively: no gap, no duplicate", async () => {
    const n = 6;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(
        await newDraft(
          editor({ intent: "save", name: `Racer ${i}`, email: `racer.${i}@example.com` }, [
            { kind: "free", description: `Job ${i}`, quantity: "1", unitPrice: `${100 + i}` },
          ]),
        ),
      );
    }
    const [before] = await rows<{ last: number }>(
      sql`select last_seq as last from quote_counters where year = ${YEAR}`,
    );
    const answers = await Promise.all(
      ids.map((id, i) =>
        admin.post(
          `/admin/quotes/${id}`,
          editor({ intent: "send", name: `Racer ${i}`, email: `racer.${i}@example.com` }, [
            { kind: "free", description: `Job ${i}`, quantity: "1", unitPrice: `${100 + i}` },
          ]),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 200));
    const sent = await rows<{ quote_number: string; quote_seq: number }>(
      sql`select quote_number, quote_seq from quotes where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) order by quote_seq`,
    );
    const first = before!.last + 1;
    expect(sent.map((r) => r.quote_seq)).toEqual(Array.from({ length: n }, (_, i) => first + i));
    expect(sent.map((r) => r.quote_number)).toEqual(
      Array.from({ length: n }, (_, i) => `Q-${YEAR}-${String(first + i).padStart(4, "0")}`),
    );
    const [after] = await rows<{ last: number }>(
      sql`select last_seq as last from quote_counters where year = ${YEAR}`,
    );
    expect(after!.last).toBe(first + n - 1);
  });

  it("shows what became of a sent quote: an acceptance's signature and order, a decline's reason, an expiry, each in its history", async () => {
    // The client's side (another page) calls these; here they are called as it does.
    const deps = { db: db(), config: server.portico.runtime.config, actor: { id: null, email: "system" } };
    const accepted = await acceptQuote(
      deps,
      { id: adaId, email: "ada.quotes@example.com" },
      revisionId,
      { terms: "on", signature: "Ada Lovelace" },
      { ip: "203.0.113.9", userAgent: "Mozilla/5.0 (Quote Test)" },
    );
    expect(accepted.ok).toBe(true);
    const acceptedHtml = await (await admin.get(`/admin/quotes/${revisionId}`)).text();
    // The owner's bell, on every back-office page, rings with it.
    expect(acceptedHtml).toMatch(/aria-label="Notifications, \d+ unread"/);
    expect(text(acceptedHtml)).toMatch(/Quote Q-\d{4}-\d{4} accepted/);
    const acceptedPage = text(main(acceptedHtml));
    for (const shown of ["accepted", "Signed by", "Ada Lovelace", "203.0.113.9", "Mozilla/5.0 (Quote Test)"])
      expect(acceptedPage).toContain(shown);
    expect(acceptedPage).toContain(`href="/admin/orders/${accepted.ok ? accepted.orderId : ""}"`);
    // The history says it in a sentence, with who (issue 37, item 8).
    // The history says each step in a sentence, with who (issue 37, item 8).
    expect(words(acceptedPage)).toMatch(/Quote accepted — signed: Ada Lovelace by ada\.quotes@example\.com/);
    expect(acceptedPage).not.toContain('value="revise"');

    const { id: linusId } = await signedIn({ email: "linus.requester@example.com", name: "Linus Requester" });
    const declined = await declineQuote(
      deps,
      { id: linusId, email: "linus.requester@example.com" },
      linusQuoteId,
      { reason: "Too expensive for us this year." },
    );
    expect(declined.ok).toBe(true);
    const declinedPage = text(main(await (await admin.get(`/admin/quotes/${linusQuoteId}`)).text()));
    expect(declinedPage).toContain("declined");
    expect(declinedPage).toContain("Too expensive for us this year.");
    expect(words(declinedPage)).toMatch(/Quote declined — reason: [^·]*by linus\.requester@example\.com/);

    // A quote valid until today expires tomorrow (and no other: they run for 30 days).
    const shortId = await newDraft(
      editor({ intent: "send", name: "Brief Validity", email: "brief@example.com", validUntil: inDays(0) }, [
        { kind: "free", description: "Quick fix", quantity: "1", unitPrice: "50" },
      ]),
    );
    expect(await expireQuotes(deps, new Date(Date.now() + 86_400_000))).toBe(1);
    const expiredPage = text(main(await (await admin.get(`/admin/quotes/${shortId}`)).text()));
    expect(expiredPage).toContain("expired");
    expect(expiredPage).toContain("Expired");
    expect(words(expiredPage)).toMatch(/Quote expired unanswered by system/);
    const list = text(main(await (await admin.get("/admin/quotes")).text()));
    for (const status of ["accepted", "declined", "expired", "superseded"]) expect(list).toContain(status);
  });

  it("answers 404 to a client and a visitor on every /admin/quotes route, and changes nothing", async () => {
    const { session: client } = await signedIn({ email: "eve.quotes@example.com", name: "Eve" });
    const visitor = newSession();
    const draft = {
      id: await newDraft(
        editor({ intent: "save", name: "Still a draft", email: "draft@example.com" }, [
          { kind: "free", description: "Draft work", quantity: "1", unitPrice: "10" },
        ]),
      ),
    };
    const before = await rows<{ n: number; touched: string }>(
      sql`select count(*)::int as n, max(updated_at)::text as touched from quotes`,
    );
    for (const who of [client, visitor]) {
      for (const path of [
        "/admin/quotes",
        "/admin/quotes/new",
        `/admin/quotes/${adaQuoteId}`,
        `/admin/quotes/${draft.id}`,
      ])
        expect((await who.get(path)).status, path).toBe(404);
      expect((await who.post("/admin/quotes/new", adaQuote("send"))).status).toBe(404);
      for (const intent of ["save", "send", "revise"])
        expect((await who.post(`/admin/quotes/${draft.id}`, adaQuote(intent))).status, intent).toBe(404);
      expect((await who.post(`/admin/quotes/${adaQuoteId}`, { intent: "revise" })).status).toBe(404);
    }
    const after = await rows<{ n: number; touched: string }>(
      sql`select count(*)::int as n, max(updated_at)::text as touched from quotes`,
    );
    expect(after).toEqual(before);
    // A malformed or unknown id is as unknown to the owner.
    expect((await admin.get("/admin/quotes/not-a-uuid")).status).toBe(404);
    expect((await admin.get("/admin/quotes/7d4f3a52-0000-4000-8000-000000000000")).status).toBe(404);
  });
});
