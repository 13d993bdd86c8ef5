import { describe, expect, it } from "vitest";
import { SAMPLE_PDF } from "~/features/testing/sample-files";
import { ATTACHMENT_MAX_BYTES, MESSAGE_POST_MAX_BYTES, MESSAGE_POST_TOO_LARGE } from "./attachments";
import {
  FORM_POST_MAX_BYTES,
  FORM_TOO_LARGE,
  messagePostOf,
  readUploadForm,
  UNREADABLE_FORM,
} from "./message-post.server";

const URL_ = "http://portico.test/client/orders/x";
/** The sample as a file part (a copy on its own ArrayBuffer, as File wants). */
const PDF_PART = new Uint8Array(SAMPLE_PDF);

function formOf(body: string, files: File[] = []): FormData {
  const form = new FormData();
  form.set("intent", "message");
  form.set("body", body);
  for (const f of files) form.append("files", f);
  return form;
}

/** A File whose `size` says one thing and whose bytes were never read (they throw when they are). */
function unreadable(name: string, size: number): File {
  const file = new File(["x"], name, { type: "application/pdf" });
  Object.defineProperty(file, "size", { value: size });
  Object.defineProperty(file, "arrayBuffer", {
    value: () => Promise.reject(new Error("bytes read before the size was checked")),
  });
  return file;
}

describe("readUploadForm", () => {
  it("reads a multipart form and a url-encoded one", async () => {
    const multipart = await readUploadForm(
      new Request(URL_, { method: "POST", body: formOf("Hello", [new File([PDF_PART], "a.pdf")]) }),
    );
    expect(multipart.ok && multipart.form.get("body")).toBe("Hello");
    const encoded = await readUploadForm(
      new Request(URL_, { method: "POST", body: new URLSearchParams({ intent: "brief", os: "Linux" }) }),
    );
    expect(encoded.ok && encoded.form.get("os")).toBe("Linux");
  });

  it("refuses a declared length over the limit (413) without reading the body", async () => {
    const body = new ReadableStream({
      pull() {
        throw new Error("the body was read");
      },
    });
    const request = new Request(URL_, {
      method: "POST",
      body,
      headers: {
        "content-length": String(MESSAGE_POST_MAX_BYTES + 1),
        "content-type": "multipart/form-data",
      },
      duplex: "half",
    } as RequestInit);
    expect(await readUploadForm(request)).toEqual({
      ok: false,
      status: 413,
      error: MESSAGE_POST_TOO_LARGE,
      fieldErrors: { files: MESSAGE_POST_TOO_LARGE },
    });
  });

  it("keeps a form without files to the usual 64 KB (413 before reading)", async () => {
    const request = new Request(URL_, {
      method: "POST",
      body: new ReadableStream({
        pull() {
          throw new Error("the body was read");
        },
      }),
      headers: {
        "content-length": String(FORM_POST_MAX_BYTES + 1),
        "content-type": "application/x-www-form-urlencoded",
      },
      duplex: "half",
    } as RequestInit);
    expect(await readUploadForm(request)).toMatchObject({ ok: false, status: 413, error: FORM_TOO_LARGE });
  });

  it("answers 400 for a body that is no form, and 413 when the body limit cut the stream", async () => {
    const junk = new Request(URL_, {
      method: "POST",
      body: "not a form",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
    });
    expect(await readUploadForm(junk)).toMatchObject({ ok: false, status: 400, error: UNREADABLE_FORM });
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
    expect(await readUploadForm(cut)).toMatchObject({ ok: false, status: 413 });
  });
});

describe("messagePostOf", () => {
  it("gives the text and each file's name, declared type and bytes", async () => {
    const post = await messagePostOf(
      formOf("See the report", [new File([PDF_PART], "report.pdf", { type: "application/pdf" })]),
    );
    expect(post).toEqual({
      ok: true,
      body: "See the report",
      files: [{ name: "report.pdf", type: "application/pdf", bytes: SAMPLE_PDF }],
    });
  });

  it("keeps the text's line breaks as LF (browsers send a textarea's as CRLF)", async () => {
    const post = await messagePostOf(formOf("one\r\ntwo\rthree\nfour", []));
    expect(post.ok && post.body).toBe("one\ntwo\nthree\nfour");
  });

  it("leaves out the empty part an unused file input sends, and strings posted as files", async () => {
    const form = formOf("No files");
    form.append("files", new File([], "", { type: "application/octet-stream" }));
    form.append("files", "not a file");
    expect(await messagePostOf(form)).toEqual({ ok: true, body: "No files", files: [] });
    const noBody = new FormData();
    expect(await messagePostOf(noBody)).toEqual({ ok: true, body: "", files: [] });
  });

  it("refuses six files or one over 10 MB by their sizes, before reading any bytes", async () => {
    const six = Array.from({ length: 6 }, (_, i) => unreadable(`f${i}.pdf`, 10));
    expect(await messagePostOf(formOf("x", six))).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { files: "Attach at most 5 files to one message." },
    });
    const big = [unreadable("../../etc/huge\u0000.pdf", ATTACHMENT_MAX_BYTES + 1)];
    expect(await messagePostOf(formOf("x", big))).toEqual({
      ok: false,
      status: 413,
      error: "huge.pdf is larger than 10 MB.",
      fieldErrors: { files: "huge.pdf is larger than 10 MB." },
    });
  });
});
