/**
 * The client's order page through the built server (ADR 0512): each client sees their own order only
 * (another's, a malformed id: 'Order Not Found', 404), the brief's form and its answers, messages with
 * files checked by their sizes before they are read and by their bytes after, the 413 of a body over
 * the page's limit (and a legitimate 49 MB one reaching the action), downloads with their headers and
 * scope, the follow-up period, the rate limit, the live event of a post, the links to the page and the
 * thank-you page's call to action.
 */
import { request as httpRequest } from "node:http";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { messageAttachments, orderMessages } from "~/db/schema";
import { MESSAGE_POST_MAX_BYTES, MESSAGE_POST_TOO_LARGE } from "~/features/orders/attachments";
import { MESSAGES_PER_WINDOW } from "~/features/orders/conversation.server";
import { type FixtureOrder, makeOrders } from "~/features/testing/fixtures.server";
import { SAMPLE_PDF, SAMPLE_PNG } from "~/features/testing/sample-files";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { EventReader, openEvents, signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

type Who = { session: Session; userId: string; email: string };

const ANSWERS = {
  problem: "Outlook keeps asking for my password",
  since: "Monday",
  urgency: "Two people cannot read their mail",
};

/** A file part from bytes (copied onto an ArrayBuffer of its own, as File wants). */
const fileOf = (bytes: Uint8Array | number, name: string, type = "application/octet-stream") =>
  new File([typeof bytes === "number" ? new Uint8Array(bytes) : new Uint8Array(bytes)], name, { type });

function messageForm(body: string, files: File[] = []): FormData {
  const form = new FormData();
  form.set("intent", "message");
  form.set("body", body);
  for (const f of files) form.append("files", f);
  return form;
}

describe.each(testDatabases)("the client's order page on $name", (database) => {
  let server: TestServer;
  let db: Database;
  let ada: Who;
  let bo: Who;
  let paid: FixtureOrder | undefined;
  let pending: FixtureOrder | undefined;
  let boOrder: FixtureOrder | undefined;

  const page = async (who: Who, path: string, status = 200) => {
    const res = await who.session.get(path);
    expect(res.status, path).toBe(status);
    return text(await res.text());
  };
  const orderPath = (o: FixtureOrder) => `/client/orders/${o.orderId}`;

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    db = server.portico.runtime.database.db;
    [ada, bo] = await Promise.all([
      signedInClient(server.url, db, "Ada Orders"),
      signedInClient(server.url, db, "Bo Orders"),
    ]);
    [paid] = await makeOrders(db, ada.userId, {
      status: "paid",
      serviceSlug: "per-incident-support",
      amountUsd: 20,
      currency: "INR",
      rate: 83.25,
    });
    [pending] = await makeOrders(db, ada.userId, { status: "pending", serviceSlug: "per-incident-support" });
    [boOrder] = await makeOrders(db, bo.userId, { status: "paid", serviceSlug: "per-incident-support" });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("shows the client's own order: amounts, invoice, timeline with the current step, the brief's form", async () => {
    const html = await page(ada, orderPath(paid!));
    expect(html).toContain("Per Incident Support");
    expect(html).toContain("₹1,665.00");
    expect(html).toContain("$20.00 USD");
    expect(html).toContain(`href="/client/invoice/${paid!.invoiceId}"`);
    expect(html).toContain(paid!.invoiceNumber);
    // An ordered list of steps, the current one marked for assistive technology, each reached one timed.
    expect(html).toMatch(/<ol[^>]*>\s*<li[^>]*data-step="placed"/);
    expect(html).toMatch(/data-step="paid" data-state="done" aria-current="step"/);
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(html).toMatch(/data-step="in_progress" data-state="upcoming"/);
    expect(html).toMatch(/<time dateTime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d E[SD]T<\/time>/);
    // The brief: missing, with the service's questions as fields.
    expect(html).toContain("Waiting for your details");
    expect(html).toContain("What is broken");
    expect(html).toMatch(
      /<textarea[^>]*name="problem"[^>]*maxLength="2000"|<textarea[^>]*maxLength="2000"[^>]*name="problem"/,
    );
    // The conversation's form takes files.
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toMatch(/type="file"[^>]*multiple|multiple[^>]*type="file"/);
    expect(html).toContain('accept=".pdf,.png,.jpg,.jpeg,.zip,.txt,.csv,.eml"');
  });

  it("answers 'Order Not Found' (404) for another client's order, a malformed id and an unknown one", async () => {
    for (const path of [
      orderPath(boOrder!),
      "/client/orders/not-a-uuid",
      "/client/orders/0b6c4c8e-7c43-4d51-9c55-0f6f1d9b0a11",
      "/client/orders/%27%20or%201=1--",
    ]) {
      const html = await page(ada, path, 404);
      expect(html, path).toContain("Order Not Found");
      expect(html, path).not.toContain("What is broken");
    }
    // Visitors sign in first.
    const anon = await server.get(orderPath(paid!));
    expect(anon.status).toBe(302);
    expect(anon.headers.get("location")).toMatch(/^\/client\/login\?redirectTo=/);
  });

  it("links each order from the list, the dashboard and the invoice, with the brief's badge", async () => {
    const list = await page(ada, "/client/orders");
    expect(list).toContain(`href="${orderPath(paid!)}"`);
    expect(list).toContain(`href="${orderPath(pending!)}"`);
    // Only the paid order waits for details: the pending one is not asked yet.
    expect(list.match(/Waiting for your details/g)).toHaveLength(1);
    const dashboard = await page(ada, "/client/dashboard");
    expect(dashboard).toContain(`href="${orderPath(paid!)}"`);
    expect(dashboard).toContain("Waiting for your details");
    const invoice = await page(ada, `/client/invoice/${paid!.invoiceId}`);
    expect(invoice).toContain(`href="${orderPath(paid!)}"`);
    // Bo's list shows Bo's order only.
    const boList = await page(bo, "/client/orders");
    expect(boList).not.toContain(paid!.orderId);
  });

  it("asks for the job's details on the thank-you page after paying, until they are sent", async () => {
    const thanks = `/thank-you?type=payment&order_id=${paid!.orderId}&amount=1665.00`;
    const html = await page(ada, thanks);
    expect(html).toContain("Your payment was successful. Your order is being processed.");
    expect(html).toContain("View Dashboard");
    expect(html).toContain("Download Invoice");
    expect(html).toContain("Tell us about the job");
    expect(html).toContain(`href="${orderPath(paid!)}"`);
    // Not for someone else's order, nor for a visitor.
    expect(await page(bo, thanks)).not.toContain("Tell us about the job");
    const anon = await server.get(thanks);
    expect(anon.status).toBe(200);
    expect(await anon.text()).not.toContain("Tell us about the job");
  });

  it("the brief: each refused answer beside its field (400), then saved, corrected, and closed before payment", async () => {
    const path = orderPath(paid!);
    const refused = await ada.session.post(path, {
      intent: "brief",
      problem: "",
      since: "x".repeat(201),
      urgency: "Today",
    });
    expect(refused.status).toBe(400);
    const errors = text(await refused.text());
    expect(errors).toContain('Please answer "What is broken".');
    expect(errors).toContain('The answer to "Since when" must be at most 200 characters.');
    // The answers as typed come back, so nothing is lost.
    expect(errors).toContain('value="Today"');
    expect(errors).toMatch(/aria-invalid="true"/);

    const saved = await ada.session.post(path, { intent: "brief", ...ANSWERS });
    expect(saved.status).toBe(200);
    const after = text(await saved.text());
    expect(after).toContain("Thank you: your details are with us.");
    const shown = await page(ada, path);
    expect(shown).toContain(ANSWERS.problem);
    expect(shown).not.toContain("Waiting for your details");
    expect(shown).toContain("Correct your details");
    expect(await page(ada, "/client/orders")).not.toContain("Waiting for your details");
    expect(await page(ada, `/thank-you?type=payment&order_id=${paid!.orderId}`)).not.toContain(
      "Tell us about the job",
    );

    const corrected = await ada.session.post(path, { intent: "brief", ...ANSWERS, since: "Tuesday" });
    expect(corrected.status).toBe(200);
    expect(text(await corrected.text())).toContain("Your details are updated.");

    const early = await ada.session.post(orderPath(pending!), { intent: "brief", ...ANSWERS });
    expect(early.status).toBe(409);
    expect(text(await early.text())).toContain("The details can be sent once the order is paid.");
    // Bo cannot answer Ada's brief; an unknown intent is refused.
    expect((await bo.session.post(path, { intent: "brief", ...ANSWERS })).status).toBe(404);
    expect((await ada.session.post(path, { intent: "nothing" })).status).toBe(400);
  });

  it("a message with a PDF: stored, shown with a safe link and the file, downloadable with its headers", async () => {
    const path = orderPath(paid!);
    const events = new EventReader(await openEvents(server.url, ada.session));
    try {
      const sent = await ada.session.postMultipart(
        path,
        messageForm("The logs are at https://example.com/logs?id=1&x=2. <b>Thanks</b>", [
          fileOf(SAMPLE_PDF, "report.pdf", "application/pdf"),
        ]),
      );
      expect(sent.status).toBe(200);
      expect(text(await sent.text())).toContain("Message sent.");
      // The client's other tabs are told (the page revalidates on it).
      await events.until(
        () => events.data().some((e) => e.kind === "message" && e.entityId === paid!.orderId),
        "the message event",
      );
    } finally {
      await events.close();
    }
    const [stored] = await db
      .select({
        id: messageAttachments.id,
        filename: messageAttachments.filename,
        size: messageAttachments.size,
      })
      .from(messageAttachments)
      .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
      .where(eq(orderMessages.orderId, paid!.orderId));
    expect(stored).toMatchObject({ filename: "report.pdf", size: SAMPLE_PDF.length });

    const raw = await (await ada.session.get(path)).text();
    expect(raw).toContain(
      '<a href="https://example.com/logs?id=1&amp;x=2" target="_blank" rel="noopener noreferrer nofollow"',
    );
    expect(raw).toContain("&lt;b&gt;Thanks&lt;/b&gt;");
    expect(raw).not.toContain("<b>Thanks</b>");
    expect(raw).toContain(`href="${path}/files/${stored!.id}"`);
    expect(text(raw)).toMatch(/report\.pdf<\/a><span[^>]*>\(\d+ bytes\)/);

    const download = await ada.session.get(`${path}/files/${stored!.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(
      "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf",
    );
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("cache-control")).toBe("private, no-store");
    expect(download.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(SAMPLE_PDF);

    // Scoped like the order: not Bo's, not under another order's address, not a malformed id.
    for (const [who, url] of [
      [bo, `${path}/files/${stored!.id}`],
      [bo, `${orderPath(boOrder!)}/files/${stored!.id}`],
      [ada, `${orderPath(pending!)}/files/${stored!.id}`],
      [ada, `${path}/files/not-a-uuid`],
    ] as const) {
      const res = await who.session.get(url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain("%PDF");
    }
    expect((await server.get(`${path}/files/${stored!.id}`)).status).toBe(302);
  });

  it("refuses files that lie, are empty, too large or too many, and cleans names, storing nothing refused", async () => {
    const path = orderPath(paid!);
    const count = async () =>
      (await db.select().from(orderMessages).where(eq(orderMessages.orderId, paid!.orderId))).length;
    const before = await count();
    const refuse = async (files: File[], status: number, message: string, body = "Please look") => {
      const res = await ada.session.postMultipart(path, messageForm(body, files));
      expect(res.status, message).toBe(status);
      expect(text(await res.text())).toContain(message);
    };
    await refuse(
      [fileOf(SAMPLE_PNG, "invoice.pdf", "application/pdf")],
      400,
      "invoice.pdf is not a real PDF file: its content does not match its type.",
    );
    await refuse([fileOf(0, "empty.txt", "text/plain")], 400, "empty.txt is empty.");
    await refuse(
      [fileOf(11 * 1024 * 1024, "big.pdf", "application/pdf")],
      413,
      "big.pdf is larger than 10 MB.",
    );
    await refuse(
      Array.from({ length: 6 }, (_, i) => fileOf(SAMPLE_PDF, `f${i}.pdf`, "application/pdf")),
      400,
      "Attach at most 5 files to one message.",
    );
    await refuse([], 400, "Write a message.", "  ");
    expect(await count()).toBe(before);

    const named = await ada.session.postMultipart(
      path,
      messageForm("Named", [fileOf(SAMPLE_PDF, "../../etc/pass\u0007wd\u202E.pdf", "application/pdf")]),
    );
    expect(named.status).toBe(200);
    const [kept] = await db
      .select({ id: messageAttachments.id, filename: messageAttachments.filename })
      .from(messageAttachments)
      .where(sql`${messageAttachments.filename} like 'pass%'`);
    expect(kept!.filename).toBe("passwd.pdf");
    const download = await ada.session.get(`${path}/files/${kept!.id}`);
    expect(download.headers.get("content-disposition")).toBe(
      "attachment; filename=\"passwd.pdf\"; filename*=UTF-8''passwd.pdf",
    );
  });

  it("answers 413 with a clear message to a body over the page's limit, before reading it", async () => {
    const url = new URL(server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: orderPath(paid!),
        agent: false,
        headers: {
          cookie: ada.session.cookieHeader,
          origin: server.url,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(MESSAGE_POST_MAX_BYTES + 1),
        },
      });
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on("error", (e) => {
        if (!answered) reject(e);
      });
      // A few bytes of the 51 MB announced: the answer comes without the rest.
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toBe(MESSAGE_POST_TOO_LARGE);
  });

  it("lets a 49 MB post of five files through to the action (no smaller cap cuts it)", async () => {
    const almost = 9.8 * 1024 * 1024;
    const files = Array.from({ length: 5 }, (_, i) =>
      fileOf(Math.floor(almost), `scan-${i}.pdf`, "application/pdf"),
    );
    const res = await ada.session.postMultipart(orderPath(paid!), messageForm("Five scans", files));
    // The action read every byte and checked them: zeros are no PDF (so nothing is stored either).
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain("scan-0.pdf is not a real PDF file");
  }, 60_000);

  it("closes the conversation 7 days after an incident is completed, with a link to buy another", async () => {
    const [done] = await makeOrders(db, ada.userId, {
      status: "completed",
      serviceSlug: "per-incident-support",
    });
    const path = orderPath(done!);
    expect(await page(ada, path)).toContain('name="body"');
    await db.execute(
      sql`update orders set completed_at = now() - interval '8 days' where id = ${done!.orderId}`,
    );
    const html = await page(ada, path);
    const ended = html.match(/Follow-up period ended on [A-Z][a-z]+ \d{1,2}, \d{4}\./);
    expect(ended).not.toBeNull();
    expect(html).toContain('href="/client/purchase/per-incident-support"');
    expect(html).toContain("Buy another incident");
    expect(html).not.toContain('name="body"');
    const late = await ada.session.postMultipart(path, messageForm("One more question"));
    expect(late.status).toBe(409);
    expect(text(await late.text())).toContain(ended![0]);
  });

  it("refuses the 21st message in ten minutes (429), with Retry-After", async () => {
    const carol = await signedInClient(server.url, db, "Carol Chatty");
    const [order] = await makeOrders(db, carol.userId, { status: "paid" });
    const path = `/client/orders/${order!.orderId}`;
    for (let i = 1; i <= MESSAGES_PER_WINDOW; i++) {
      const res = await carol.session.postMultipart(path, messageForm(`Message ${i}`));
      expect(res.status, `message ${i}`).toBe(200);
      await res.body?.cancel();
    }
    const limited = await carol.session.postMultipart(path, messageForm("One too many"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(text(await limited.text())).toContain(
      "Too many messages in a short time. Please wait a few minutes and try again.",
    );
  }, 60_000);

  it("counts refused posts too (ADR 0514): after 20 refused files, a good message is 429", async () => {
    const dora = await signedInClient(server.url, db, "Dora Refused");
    const [order] = await makeOrders(db, dora.userId, { status: "paid" });
    const path = `/client/orders/${order!.orderId}`;
    for (let i = 1; i <= MESSAGES_PER_WINDOW; i++) {
      const res = await dora.session.postMultipart(
        path,
        messageForm(`Try ${i}`, [fileOf(SAMPLE_PNG, "tool.exe")]),
      );
      expect(res.status, `post ${i}`).toBe(400);
      await res.body?.cancel();
    }
    const limited = await dora.session.postMultipart(path, messageForm("A fine message"));
    expect(limited.status).toBe(429);
    expect(text(await limited.text())).toContain("Too many messages in a short time.");
    const stored = await db.select().from(orderMessages).where(eq(orderMessages.orderId, order!.orderId));
    expect(stored).toEqual([]);
  }, 60_000);
});
