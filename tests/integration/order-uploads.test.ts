/**
 * Message uploads through the built server's real handler (issue 35 item 3, ADR 0514): a third upload
 * from one account while two are in flight is refused with a clear 429 (and the two are stored once
 * they end); the storage quota's 413 with its own message (a server with ATTACHMENT_QUOTA_MB=1); a
 * too-large file or a refused kind stores nothing, not even the message; an honest client's three
 * ordinary files are stored and downloadable.
 */
import { request as httpRequest } from "node:http";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "~/db/client.server";
import { messageAttachments, orderMessages } from "~/db/schema";
import { makeOrders } from "~/features/testing/fixtures.server";
import { SAMPLE_PDF, SAMPLE_PNG } from "~/features/testing/sample-files";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

type Who = { session: Session; userId: string; email: string };

const fileOf = (bytes: Uint8Array | number, name: string, type = "application/octet-stream") =>
  new File([typeof bytes === "number" ? new Uint8Array(bytes) : new Uint8Array(bytes)], name, { type });
const textFile = (size: number, name: string) =>
  new File([Buffer.alloc(size, "a")], name, { type: "text/plain" });

function messageForm(body: string, files: File[] = []): FormData {
  const form = new FormData();
  form.set("intent", "message");
  form.set("body", body);
  for (const f of files) form.append("files", f);
  return form;
}

/** The messages and attachments stored on an order. */
async function storedOn(db: Database, orderId: string) {
  const messages = await db
    .select({ id: orderMessages.id, body: orderMessages.body })
    .from(orderMessages)
    .where(eq(orderMessages.orderId, orderId));
  const files = messages.length
    ? await db
        .select({
          id: messageAttachments.id,
          filename: messageAttachments.filename,
          size: messageAttachments.size,
        })
        .from(messageAttachments)
        .where(
          inArray(
            messageAttachments.messageId,
            messages.map((m) => m.id),
          ),
        )
    : [];
  return { messages, files };
}

/**
 * A message post with one PNG whose body is sent in two halves: the first now (up to the middle of
 * the file), the rest when `finish` is called. Until then the server holds the post open, reading.
 */
function heldUpload(url: string, who: Who, path: string, name: string, message: string) {
  const boundary = `----porticoHeld${name.replace(/\W/g, "")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nmessage\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${message}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const png = Buffer.from(SAMPLE_PNG);
  const half = Math.floor(png.length / 2);
  const first = Buffer.concat([head, png.subarray(0, half)]);
  const rest = Buffer.concat([png.subarray(half), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const target = new URL(url);
  const req = httpRequest({
    host: target.hostname,
    port: target.port,
    method: "POST",
    path,
    agent: false,
    headers: {
      cookie: who.session.cookieHeader,
      origin: url,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(first.length + rest.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
  // A test that fails before `finish` closes the server under it: not an unhandled rejection then.
  answer.catch(() => {});
  req.write(first);
  return {
    answer,
    finish() {
      req.end(rest);
      return answer;
    },
  };
}

describe.each(testDatabases)("message uploads on $name", (database) => {
  let server: TestServer;
  let small: TestServer;
  let db: Database;

  beforeAll(async () => {
    [server, small] = await Promise.all([
      startTestServer(database, { TRUST_PROXY: "loopback" }),
      startTestServer(database, { TRUST_PROXY: "loopback", ATTACHMENT_QUOTA_MB: "1" }),
    ]);
    db = server.portico.runtime.database.db;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([server?.close(), small?.close()]);
  });

  const clientWithOrder = async (on: TestServer, name: string) => {
    const onDb = on.portico.runtime.database.db;
    const who = await signedInClient(on.url, onDb, name);
    const [order] = await makeOrders(onDb, who.userId, { status: "paid" });
    return { who, orderId: order!.orderId, path: `/client/orders/${order!.orderId}` };
  };

  it("refuses a third upload while two are in flight (429, Retry-After), then stores the two", async () => {
    const { who, orderId, path } = await clientWithOrder(server, "Ina Inflight");
    const hits = async () => {
      const rows = await queryRows<{ hits: number }>(
        db,
        sql`select hits from rate_limits where key = ${`order-message:${who.userId}`}`,
      );
      return Number(rows[0]?.hits ?? 0);
    };
    const one = heldUpload(server.url, who, path, "first.png", "First of two");
    const two = heldUpload(server.url, who, path, "second.png", "Second of two");
    // Both posts counted against the rate (the write just before each takes its slot, with no other
    // wait in between): then both hold a slot, their bodies still open.
    for (let i = 0; (await hits()) < 2; i++) {
      if (i > 2000) throw new Error("the two uploads were never counted");
      await new Promise((resolve) => setImmediate(resolve));
    }

    const third = await who.session.postMultipart(
      path,
      messageForm("A third, too soon", [fileOf(SAMPLE_PNG, "third.png", "image/png")]),
    );
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("10");
    const html = text(await third.text());
    expect(html).toContain(
      "You are already sending 2 messages with files. Please wait until they are sent, then try again.",
    );
    // Refused before its body is read: nothing of it was kept.
    expect(html).not.toContain("A third, too soon");

    const [a, b] = await Promise.all([one.finish(), two.finish()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(text(a.body)).toContain("Message sent.");
    const stored = await storedOn(db, orderId);
    expect(stored.messages.map((m) => m.body).sort()).toEqual(["First of two", "Second of two"]);
    expect(stored.files.map((f) => f.filename).sort()).toEqual(["first.png", "second.png"]);
    for (const f of stored.files) expect(f.size).toBe(SAMPLE_PNG.length);

    // The slots are given back: the next upload goes through.
    const next = await who.session.postMultipart(
      path,
      messageForm("Now the third", [fileOf(SAMPLE_PNG, "third.png", "image/png")]),
    );
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  }, 60_000);

  it("answers the storage quota's 413 with its own message (ATTACHMENT_QUOTA_MB=1), storing nothing", async () => {
    const onDb = small.portico.runtime.database.db;
    const { who, orderId, path } = await clientWithOrder(small, "Quinn Quota");
    const kept = await who.session.postMultipart(
      path,
      messageForm("The export", [textFile(700 * 1024, "export.txt")]),
    );
    expect(kept.status).toBe(200);
    await kept.arrayBuffer();

    const over = await who.session.postMultipart(
      path,
      messageForm("And the rest", [textFile(400 * 1024, "rest.txt")]),
    );
    expect(over.status).toBe(413);
    const html = text(await over.text());
    expect(html).toContain(
      "These files would take your attachments over the 1 MB one account may keep (700 KB stored already). Send the message without files, or with smaller ones.",
    );
    expect(html).toContain("And the rest");
    const stored = await storedOn(onDb, orderId);
    expect(stored.messages.map((m) => m.body)).toEqual(["The export"]);
    expect(stored.files.map((f) => f.filename)).toEqual(["export.txt"]);

    // A message without files still goes.
    const plain = await who.session.postMultipart(path, messageForm("No files this time"));
    expect(plain.status).toBe(200);
    await plain.arrayBuffer();
  }, 60_000);

  it("stores nothing for a too-large file or a refused kind, not even the message", async () => {
    const { who, orderId, path } = await clientWithOrder(server, "Rita Refused");
    const refuse = async (files: File[], status: number, message: string) => {
      const res = await who.session.postMultipart(path, messageForm("Please look", files));
      expect(res.status, message).toBe(status);
      expect(text(await res.text())).toContain(message);
    };
    // A good file first, then one over 10 MB: the whole post is refused.
    await refuse(
      [
        fileOf(SAMPLE_PDF, "ok.pdf", "application/pdf"),
        fileOf(11 * 1024 * 1024, "big.pdf", "application/pdf"),
      ],
      413,
      "big.pdf is larger than 10 MB.",
    );
    await refuse(
      [fileOf(SAMPLE_PNG, "ok.png", "image/png"), fileOf(SAMPLE_PNG, "tool.exe")],
      400,
      "tool.exe cannot be attached: only",
    );
    expect(await storedOn(db, orderId)).toEqual({ messages: [], files: [] });
  }, 60_000);

  it("stores an honest client's message with a PDF, a PNG and a text file, each downloadable", async () => {
    const { who, orderId, path } = await clientWithOrder(server, "Hal Honest");
    const note = new TextEncoder().encode("Mailbox: hal@example.com\nError: 0x800CCC0E\n");
    const sent = await who.session.postMultipart(
      path,
      messageForm("Here are the report, a screenshot and the error.", [
        fileOf(SAMPLE_PDF, "report.pdf", "application/pdf"),
        fileOf(SAMPLE_PNG, "screenshot.png", "image/png"),
        fileOf(note, "error.txt", "text/plain"),
      ]),
    );
    expect(sent.status).toBe(200);
    expect(text(await sent.text())).toContain("Message sent.");
    const stored = await storedOn(db, orderId);
    expect(stored.messages.map((m) => m.body)).toEqual(["Here are the report, a screenshot and the error."]);
    const byName = new Map(stored.files.map((f) => [f.filename, f]));
    expect([...byName.keys()].sort()).toEqual(["error.txt", "report.pdf", "screenshot.png"]);
    for (const [name, bytes, type] of [
      ["report.pdf", SAMPLE_PDF, "application/pdf"],
      ["screenshot.png", SAMPLE_PNG, "image/png"],
      ["error.txt", note, "text/plain"],
    ] as const) {
      const download = await who.session.get(`${path}/files/${byName.get(name)!.id}`);
      expect(download.status, name).toBe(200);
      expect(download.headers.get("content-type"), name).toMatch(new RegExp(`^${type}`));
      expect(new Uint8Array(await download.arrayBuffer()), name).toEqual(new Uint8Array(bytes));
    }
  }, 60_000);
});
