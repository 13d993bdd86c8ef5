/**
 * Reading a post with files (ADR 0514): counted before it is read, the account's uploads in flight,
 * the body parsed as a stream with each file refused as soon as it can be (before its end arrives),
 * the storage quota, and the text fields handed on as before.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { SAMPLE_PDF } from "~/features/testing/sample-files";
import { openSeededTestDatabase } from "~/features/testing/test-databases.server";
import { ATTACHMENT_MAX_BYTES, MESSAGE_POST_MAX_BYTES, MESSAGE_POST_TOO_LARGE } from "./attachments";
import { CONVERSATION_MESSAGES } from "./conversation";
import { MESSAGES_PER_WINDOW } from "./conversation.server";
import {
  FORM_POST_MAX_BYTES,
  FORM_TOO_LARGE,
  messagePostOf,
  type PostRefusal,
  UNREADABLE_FORM,
  UPLOADS_IN_FLIGHT_MESSAGE,
  type UploadDeps,
  type UploadPost,
  withUploadPost,
} from "./message-post.server";
import { UploadsInFlight } from "./uploads-in-flight.server";

const URL_ = "http://portico.test/client/orders/x";
const BOUNDARY = "portico-test-boundary";
const enc = new TextEncoder();

const field = (name: string, value: string) =>
  enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const fileHead = (name: string, type = "application/octet-stream") =>
  enc.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
const CRLF = enc.encode("\r\n");
const END = enc.encode(`--${BOUNDARY}--\r\n`);

/**
 * A multipart request whose body is `parts` and then, unless `end`, stays open (the sender still
 * sending): what the reader answers then, it answered before the rest arrived.
 */
function multipart(parts: Uint8Array[], end = true): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else if (end) controller.close();
      // else: nothing more, for now.
    },
  });
  return new Request(URL_, {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    duplex: "half",
  } as RequestInit);
}

describe("withUploadPost", () => {
  let handle: DatabaseHandle;
  let deps: UploadDeps;
  beforeAll(async () => {
    handle = await openSeededTestDatabase("pglite");
    deps = { db: handle.db, config: { attachmentQuotaBytes: 500 * 1024 * 1024 } };
  }, 60_000);
  afterAll(() => handle?.close());

  const author = () => ({ id: randomUUID(), role: "client" as const });
  const read = (request: Request, d: UploadDeps = deps, who = author()) =>
    withUploadPost(d, who, request, async (post) => post);

  it("reads a multipart form (text fields and files) and a url-encoded one", async () => {
    const post = await read(
      multipart([
        field("intent", "message"),
        field("body", "one\r\ntwo"),
        fileHead("report.pdf", "application/pdf"),
        SAMPLE_PDF,
        CRLF,
        END,
      ]),
    );
    expect(post.ok).toBe(true);
    const { body, files } = messagePostOf(post as UploadPost);
    expect((post as UploadPost).form.get("intent")).toBe("message");
    expect((post as UploadPost).counted).toBe(true);
    expect(body).toBe("one\ntwo");
    expect(files).toEqual([{ name: "report.pdf", type: "application/pdf", bytes: Buffer.from(SAMPLE_PDF) }]);
    const encoded = await read(
      new Request(URL_, { method: "POST", body: new URLSearchParams({ intent: "brief", os: "Linux" }) }),
    );
    expect(encoded.ok && encoded.form.get("os")).toBe("Linux");
    expect(encoded.ok && encoded.counted).toBe(false);
  });

  it("leaves out the empty part an unused file input sends", async () => {
    const post = await read(multipart([field("body", "No files"), fileHead(""), CRLF, END]));
    expect(post.ok && post.files).toEqual([]);
  });

  it("refuses a declared length over the limit (413), and a form without files over 64 KB", async () => {
    const untouched = () =>
      new ReadableStream({
        pull() {
          throw new Error("the body was read");
        },
      });
    const big = new Request(URL_, {
      method: "POST",
      body: untouched(),
      headers: {
        "content-length": String(MESSAGE_POST_MAX_BYTES + 1),
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      },
      duplex: "half",
    } as RequestInit);
    expect(await read(big)).toMatchObject({ status: 413, error: MESSAGE_POST_TOO_LARGE });
    const form = new Request(URL_, {
      method: "POST",
      body: untouched(),
      headers: {
        "content-length": String(FORM_POST_MAX_BYTES + 1),
        "content-type": "application/x-www-form-urlencoded",
      },
      duplex: "half",
    } as RequestInit);
    expect(await read(form)).toMatchObject({ status: 413, error: FORM_TOO_LARGE });
  });

  it("answers 400 for a body that is no form, and 413 when the body limit cut the stream", async () => {
    const junk = new Request(URL_, {
      method: "POST",
      body: "not a form",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
    });
    expect(await read(junk)).toMatchObject({ ok: false, status: 400, error: UNREADABLE_FORM });
    const noBoundary = new Request(URL_, {
      method: "POST",
      body: "x",
      headers: { "content-type": "multipart/form-data" },
    });
    expect(await read(noBoundary)).toMatchObject({ ok: false, status: 400, error: UNREADABLE_FORM });
    const cut = new Request(URL_, {
      method: "POST",
      body: new ReadableStream({
        pull() {
          throw Object.assign(new Error("request body larger than 10 bytes"), { status: 413 });
        },
      }),
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      duplex: "half",
    } as RequestInit);
    expect(await read(cut)).toMatchObject({ ok: false, status: 413 });
  });

  it("refuses a refused kind or an oversized file before its end arrives, a mismatched one at its end", async () => {
    const exe = await read(
      multipart([field("body", "Typed"), fileHead("tool.exe"), enc.encode("MZ")], false),
    );
    expect(exe).toMatchObject({
      status: 400,
      error: "tool.exe cannot be attached: only PDF, PNG, JPEG, ZIP, TXT, CSV or EML files are accepted.",
      body: "Typed",
    });
    const fake = await read(
      multipart([fileHead("invoice.pdf"), enc.encode("<html><script>"), CRLF, field("body", "x")], false),
    );
    expect(fake).toMatchObject({
      status: 400,
      error: "invoice.pdf is not a real PDF file: its content does not match its type.",
    });
    const binaryText = await read(
      multipart(
        [fileHead("notes.txt"), enc.encode("plain words"), new Uint8Array([0, 1, 2]), CRLF, END],
        false,
      ),
    );
    expect(binaryText).toMatchObject({
      status: 400,
      error: expect.stringContaining("notes.txt is not a real TXT"),
    });
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(SAMPLE_PDF);
    const huge = await read(
      multipart([fileHead("big.pdf"), ...Array.from({ length: 11 }, () => chunk)], false),
    );
    expect(huge).toMatchObject({ status: 413, error: "big.pdf is larger than 10 MB." });
    expect(ATTACHMENT_MAX_BYTES).toBeLessThan(11 * chunk.length);
  });

  it("refuses a sixth file (400)", async () => {
    const parts = Array.from({ length: 6 }, (_, i) => [fileHead(`f${i}.pdf`), SAMPLE_PDF, CRLF]).flat();
    expect(await read(multipart([...parts, END]))).toMatchObject({
      status: 400,
      error: "Attach at most 5 files to one message.",
    });
  });

  it("refuses files over the account's storage quota (413) as soon as they are", async () => {
    const small: UploadDeps = { ...deps, config: { attachmentQuotaBytes: 1024 } };
    const over = await read(
      multipart([fileHead("a.pdf"), SAMPLE_PDF, new Uint8Array(2048).fill(32)], false),
      small,
    );
    expect(over).toMatchObject({
      status: 413,
      error: expect.stringContaining("over the 0 MB one account may keep (0 bytes stored already)"),
    });
  });

  it("lets an account have two uploads in flight, refuses a third (429), and counts every post", async () => {
    const who = author();
    const d: UploadDeps = { ...deps, uploadsInFlight: new UploadsInFlight() };
    let finish!: () => void;
    const held = new Promise<void>((r) => {
      finish = r;
    });
    const holding = [1, 2].map(() =>
      withUploadPost(d, who, multipart([field("body", "x"), END]), async (post) => {
        await held;
        return post;
      }),
    );
    // Both have their slots once they are reading: the third is refused meanwhile.
    while (d.uploadsInFlight!.held(who.id) < 2) await new Promise((r) => setImmediate(r));
    const third = (await read(multipart([field("body", "third"), END]), d, who)) as PostRefusal;
    expect(third).toMatchObject({ status: 429, error: UPLOADS_IN_FLIGHT_MESSAGE });
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    finish();
    expect((await Promise.all(holding)).map((p) => p.ok)).toEqual([true, true]);
    expect(d.uploadsInFlight!.held(who.id)).toBe(0);
    // Three posts counted; the rest of the window's allowance, then 429 whatever the post.
    for (let i = 3; i < MESSAGES_PER_WINDOW; i++) {
      expect((await read(multipart([fileHead("x.exe"), END]), d, who)).ok).toBe(false);
    }
    expect(await read(multipart([field("body", "fine"), END]), d, who)).toMatchObject({
      status: 429,
      error: CONVERSATION_MESSAGES.rateLimited,
    });
  });
});
