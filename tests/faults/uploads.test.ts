/**
 * Uploads cannot exhaust memory (issue 35 item 3, ADR 0514), against the production server
 * (`node server.js`) on PostgreSQL only: PGlite keeps the stored bytes in its own heap, inside the
 * server process, so its resident size would measure the database, not the upload path.
 *
 * One client with a paid order sends 30 message posts at once, each with five files of 10 MB (text
 * files, valid, so a post that is let in is held and stored: the worst case for memory). Each post is
 * counted against the message rate and takes one of the account's 2 upload slots before its body is
 * read; the others are answered 429 (or 413 over the quota) while their bodies are read and dropped.
 * Asserted: every post is answered 4xx or stored (none 5xx, none reset), the server's resident size
 * sampled from /proc/<pid>/status while the posts run stays below
 *
 *     baseline RSS (just before the burst) + 2 (uploads in flight) × the largest body + 100 MB
 *
 * (the bound, read as growth over the idle process), and the process keeps serving: `/` and a
 * small message from another client afterwards (the first client has used its message rate).
 */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { ATTACHMENT_MAX_BYTES } from "~/features/orders/attachments";
import { UPLOADS_IN_FLIGHT_PER_ACCOUNT } from "~/features/orders/uploads-in-flight.server";
import type { Session } from "../support/browserless";
import { location } from "../support/browserless";
import { faultRig } from "../support/fault-rig";
import {
  checkoutToken,
  faultDatabases,
  readCheckout,
  registerClient,
  report,
  sendPaidWebhook,
  submitCheckout,
} from "../support/faults";
import { errorLines } from "../support/server-process";
import type { TestSmtp } from "../support/smtp";

const POSTS = 30;
const FILES_PER_POST = 5;
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/**
 * PostgreSQL only. As outages.test.ts, the case is only there with TEST_DATABASE_URL; this file has no
 * other suite, so without it the suite is skipped (`runIf`, as tests/integration/lifecycle.test.ts),
 * not left empty (which vitest fails as "No test suite found").
 */
const onPostgres = faultDatabases.includes("postgres");

/** A client signed up through the emailed link, with an order paid through the sandbox's webhook. */
async function clientWithOrder(
  url: string,
  smtp: TestSmtp,
  tag: string,
): Promise<{ session: Session; orderPath: string }> {
  const { session } = await registerClient(url, smtp, tag);
  const res = await submitCheckout(session, await checkoutToken(session));
  expect(res.status).toBe(302);
  const checkout = readCheckout(location(res));
  const paid = await sendPaidWebhook(url, checkout);
  expect(paid.status).toBe(200);
  await paid.arrayBuffer();
  return { session, orderPath: `/client/orders/${checkout.orderId}` };
}

/** One multipart body (built once, sent by every post): a message and five 10 MB text files. */
function fiveFilesBody(boundary: string): Buffer {
  const parts: Buffer[] = [];
  const field = (name: string, value: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      "utf8",
    );
  parts.push(field("intent", "message"), field("body", "The five exports, as asked."));
  const content = Buffer.alloc(ATTACHMENT_MAX_BYTES, "a");
  for (let i = 0; i < FILES_PER_POST; i++) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="export-${i}.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        "utf8",
      ),
      content,
      Buffer.from("\r\n", "utf8"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return Buffer.concat(parts);
}

/** Posts a body with node:http; the status, or 0 and the error when no answer came (a reset). */
function postRaw(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; error?: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      method: "POST",
      path,
      agent: false,
      headers: { ...headers, "content-length": String(body.length) },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      res.on("error", (error) => resolve({ status: res.statusCode ?? 0, error: String(error) }));
    });
    req.on("error", (error) => {
      if (!answered) resolve({ status: 0, error: String(error) });
    });
    req.end(body);
  });
}

describe.runIf(onPostgres)("30 parallel uploads of five 10 MB files on PostgreSQL", () => {
  const rig = faultRig();
  const kind = "postgres";

  it("answers each 4xx or stores it, keeps the RSS within 2 bodies + 100 MB, and keeps serving", async () => {
    const { db, smtp, env } = await rig.databaseAndMail(kind);
    const server = await rig.server(env, "server");
    const uploader = await clientWithOrder(server.url, smtp, `${kind}.uploads.a`);
    const other = await clientWithOrder(server.url, smtp, `${kind}.uploads.b`);

    const boundary = "----porticoFaultsUploadBoundary7d1f";
    const body = fiveFilesBody(boundary);
    const headers = {
      cookie: uploader.session.cookieHeader,
      origin: server.url,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    };

    const baseline = server.rss();
    const samples: number[] = [baseline];
    const sampler = setInterval(() => {
      if (server.alive()) samples.push(server.rss());
    }, 25);
    const started = Date.now();
    let answers: Array<{ status: number; error?: string }>;
    try {
      answers = await Promise.all(
        Array.from({ length: POSTS }, () => postRaw(server.url, uploader.orderPath, headers, body)),
      );
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - started) / 1000;
    samples.push(server.rss());
    const peak = Math.max(...samples);

    // The bound, as growth over the process just before the burst: the uploads one account may
    // have in flight, each holding at most the largest body, plus 100 MB for everything else.
    const bound = baseline + UPLOADS_IN_FLIGHT_PER_ACCOUNT * body.length + 100 * MB;
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    report(
      `uploads on ${kind}: ${POSTS} posts of ${mb(body.length)} MB in ${seconds.toFixed(1)} s, statuses ${JSON.stringify(
        Object.fromEntries(statuses),
      )}; RSS MB baseline ${mb(baseline)}, peak ${mb(peak)}, bound ${mb(bound)} (${samples.length} samples)`,
    );

    // Every post answered: a success (its files stored) or a clear refusal, never a 5xx or a reset.
    expect(answers.filter((a) => a.status === 0 || a.status >= 500)).toEqual([]);
    expect(answers.every((a) => a.status === 200 || (a.status >= 400 && a.status < 500))).toBe(true);
    const stored = answers.filter((a) => a.status === 200).length;
    const rows = await db.query<{ messages: number; files: number; bytes: string }>(
      `select count(distinct m.id)::int as messages, count(a.id)::int as files,
              coalesce(sum(a.size), 0)::text as bytes
         from order_messages m left join message_attachments a on a.message_id = m.id
        where m.order_id = $1`,
      [uploader.orderPath.split("/").pop()],
    );
    expect(rows[0]).toEqual({
      messages: stored,
      files: stored * FILES_PER_POST,
      bytes: String(stored * FILES_PER_POST * ATTACHMENT_MAX_BYTES),
    });
    expect(peak).toBeLessThan(bound);

    // Still serving: the home page, and a small message from another client.
    expect(server.alive()).toBe(true);
    const home = await fetch(new URL("/", server.url));
    expect(home.status).toBe(200);
    await home.arrayBuffer();
    const form = new FormData();
    form.set("intent", "message");
    form.set("body", "Is everything all right?");
    const small = await other.session.postMultipart(other.orderPath, form);
    expect(small.status).toBe(200);
    await small.arrayBuffer();
    expect(errorLines(server)).toEqual([]);
  }, 120_000);
});
