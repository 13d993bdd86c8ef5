/**
 * Issue 37, item 9, through the real HTTP server: the acceptance's signature is the account's name
 * (capitals, accents and spaces aside) or, for a company, the name typed for its signer, else a 400
 * that says so; the owner's editor offers only clients (no admin, no deleted account), adds a line
 * without saving a draft, and previews (figures and recipient, nothing saved) before Send; the quote
 * PDF's "(50%)" stays on its own row, apart from "Balance on completion".
 */
import { sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10);
const main = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>") + 7);
const words = (html: string) => text(main(html).replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

describe.each(testDatabases)("quote signatures and the owner's editor on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let n = 0;
  const { db, signedIn } = accountsOn(
    () => server,
    (i) => `198.51.117.${i}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);
  const owner = (): QuoteDeps => ({
    db: db(),
    config: server.portico.runtime.config,
    actor: { id: null, email: "owner@example.com" },
  });

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      TAX_RATE_PERCENT: "0",
    });
    ({ session: admin } = await signedIn({
      email: `boss.sig.${Date.now()}@example.com`,
      name: "Boss",
      role: "admin",
    }));
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  async function client(name: string) {
    const email = `signer.${++n}.${Date.now()}@example.com`;
    const { id, session } = await signedIn({ email, name });
    return { id, email, name, session };
  }

  async function sentQuote(to: { email: string; name: string }, depositPercent: number | null = null) {
    const draft = await saveDraft(owner(), null, {
      name: to.name,
      email: to.email,
      lines: [{ kind: "free", description: "Server rebuild", quantity: 1, unitPrice: "305.00" }],
      depositPercent,
      validUntil: inDays(14),
      terms: "Half now, half later.",
    });
    const id = (draft as { id: string }).id;
    expect(await sendQuote(owner(), id)).toMatchObject({ ok: true });
    return id;
  }

  const accepted = async (id: string) =>
    (
      await rows<{ status: string; accepted_name: string | null; accepted_for_company: string | null }>(
        sql`select status, accepted_name, accepted_for_company from quotes where id = ${id}`,
      )
    )[0]!;

  it("refuses a signature that is not the account's name, with the message, and takes the name written any way", async () => {
    const c = await client("José María García");
    const id = await sentQuote(c);
    for (const signature of ["JM", "Jose Garcia", "Someone Else"]) {
      const res = await c.session.post(`/client/quotes/${id}`, { intent: "accept", terms: "on", signature });
      expect(res.status, signature).toBe(400);
      expect(words(await res.text())).toContain(
        'Type your full name as it is on your account, "José María García", to sign.',
      );
      expect((await accepted(id)).status).toBe("sent");
    }
    const ok = await c.session.post(`/client/quotes/${id}`, {
      intent: "accept",
      terms: "on",
      signature: "  jose   MARIA garcía ",
    });
    expect(ok.status).toBe(302);
    expect(await accepted(id)).toMatchObject({ status: "accepted", accepted_name: "jose   MARIA garcía" });
  });

  it("for a company, takes the name typed for its signer and refuses any other", async () => {
    const c = await client("Pat Assistant");
    const id = await sentQuote(c);
    const body = {
      intent: "accept",
      terms: "on",
      forCompany: "on",
      company: "Acme Ltd",
      signer: "Dana Director",
    };
    const wrong = await c.session.post(`/client/quotes/${id}`, { ...body, signature: "Pat Assistant" });
    expect(wrong.status).toBe(400);
    expect(words(await wrong.text())).toContain(
      'Type the name of the person signing for Acme Ltd, "Dana Director", as the signature.',
    );
    const noSigner = await c.session.post(`/client/quotes/${id}`, { ...body, signer: "", signature: "Dana" });
    expect(noSigner.status).toBe(400);
    expect(words(await noSigner.text())).toContain(
      "Type the full name of the person signing for the company.",
    );
    const ok = await c.session.post(`/client/quotes/${id}`, { ...body, signature: "dana director" });
    expect(ok.status).toBe(302);
    expect(await accepted(id)).toMatchObject({
      accepted_name: "dana director",
      accepted_for_company: "Acme Ltd",
    });
    expect(words(await (await c.session.get(`/client/quotes/${id}`)).text())).toContain(
      "Accepted by dana director for Acme Ltd on",
    );
  });

  it("offers only clients in the editor: no admin, no deleted account, and refuses them when posted", async () => {
    const kept = await client("Kept Client");
    const gone = await client("Gone Client");
    await rows(sql`update clients set deleted_at = now() where id = ${gone.id}`);
    const [boss] = await rows<{ id: string }>(
      sql`select c.id from clients c join "user" u on u.id = c.id where u.role = 'admin' limit 1`,
    );
    const page = await (await admin.get("/admin/quotes/new")).text();
    expect(page).toContain(`value="${kept.id}"`);
    expect(page).not.toContain(`value="${gone.id}"`);
    expect(boss).toBeDefined();
    expect(page).not.toContain(`value="${boss!.id}"`);
    for (const clientId of [gone.id, boss!.id]) {
      const res = await admin.post("/admin/quotes/new", {
        intent: "save",
        clientId,
        validUntil: inDays(10),
        terms: "T",
        "lines.0.kind": "free",
        "lines.0.description": "Work",
        "lines.0.quantity": "1",
        "lines.0.unitPrice": "10",
      });
      expect(res.status).toBe(400);
      expect(words(await res.text())).toContain("No such client.");
    }
  });

  /** The editor's fields with `lines` as indexed rows. */
  function editor(fields: Record<string, string>, lines: Array<Record<string, string>>) {
    const body: Record<string, string> = {
      requestId: "",
      clientId: "",
      name: "Preview Person",
      email: `preview.${Date.now()}@example.com`,
      company: "",
      discount: "",
      depositPercent: "50",
      validUntil: inDays(20),
      terms: "Pay on time.",
      ...fields,
    };
    lines.forEach((line, i) => {
      for (const [k, v] of Object.entries(line)) body[`lines.${i}.${k}`] = v;
    });
    return body;
  }
  const line = (description: string, unitPrice: string) => ({
    kind: "free",
    description,
    quantity: "1",
    unitPrice,
  });
  const quoteCount = async () =>
    (await rows<{ n: number }>(sql`select count(*)::int as n from quotes`))[0]!.n;

  it("adds a line without saving a draft: the form comes back as typed with one blank row more", async () => {
    const before = await quoteCount();
    const body = editor({ intent: "add-line" }, [
      line("First", "1"),
      line("Second", "2"),
      line("Third", "3"),
    ]);
    const res = await admin.post("/admin/quotes/new", body);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const typed of ["First", "Second", "Third"]) expect(html).toContain(typed);
    expect(html).toContain('name="lines.3.kind"');
    expect(html).not.toContain('name="lines.4.kind"');
    expect(html).toContain(body.email!);
    expect(await quoteCount()).toBe(before);
  });

  it("previews the figures and the recipient before sending, saves nothing, then sends what was shown", async () => {
    const before = await quoteCount();
    const body = editor({ intent: "preview" }, [line("Audit", "100.00"), line("Fixes", "205.00")]);
    const res = await admin.post("/admin/quotes/new", body);
    expect(res.status).toBe(200);
    const html = await res.text();
    const shown = words(html);
    expect(shown).toContain(`Send this quote for $305.00 to ${body.email}?`);
    expect(shown).toContain(`It is emailed to Preview Person <${body.email}>`);
    expect(shown).toContain("Accepting it asks for a deposit of $152.50 (50%)");
    expect(html).toContain('name="previewedTotal" value="305.00"');
    expect(await quoteCount()).toBe(before);
    // Back to editing keeps everything typed.
    const back = await admin.post("/admin/quotes/new", { ...body, intent: "edit" });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Fixes");
    // A total that is not the one shown is not sent.
    const moved = await admin.post("/admin/quotes/new", {
      ...body,
      intent: "send",
      previewedTotal: "300.00",
    });
    expect(moved.status).toBe(409);
    expect(await quoteCount()).toBe(before);
    const sent = await admin.post("/admin/quotes/new", { ...body, intent: "send", previewedTotal: "305.00" });
    expect(sent.status).toBe(302);
    expect(location(sent)).toMatch(/\?done=sent$/);
    const [q] = await rows<{ status: string; total_usd: string }>(
      sql`select status, total_usd from quotes where email = ${body.email}`,
    );
    expect(q).toMatchObject({ status: "sent" });
    expect(Number(q!.total_usd)).toBe(305);
  });

  it("prints the deposit's percentage apart from 'Balance on completion' in the PDF", async () => {
    const c = await client("Pdf Reader");
    const id = await sentQuote(c, 50);
    const res = await c.session.get(`/client/quotes/${id}/pdf`);
    expect(res.status).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
    try {
      const { text: body } = await parser.getText({ lineEnforce: true });
      const lines = body.split("\n").map((l) => l.trim());
      const balance = lines.find((l) => l.includes("Balance on completion"));
      expect(balance).toBeDefined();
      expect(balance).not.toContain("(50%)");
      expect(balance).toMatch(/^Balance on completion\s+\$152\.50$/);
      expect(lines.some((l) => l.includes("(50%)"))).toBe(true);
    } finally {
      await parser.destroy();
    }
  });
});
