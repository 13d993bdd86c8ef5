import { describe, expect, it } from "vitest";
import {
  bytesOf,
  SAMPLE_EXE,
  SAMPLE_JPEG,
  SAMPLE_PDF,
  SAMPLE_PNG,
  SAMPLE_ZIP,
} from "~/features/testing/sample-files";
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  attachmentHeaders,
  checkAttachment,
  checkAttachments,
  contentDisposition,
  filesProblem,
  formatFileSize,
  type IncomingFile,
  MESSAGE_POST_MAX_BYTES,
  MESSAGE_POST_TOO_LARGE,
  sanitizeFilename,
  sniffBinaryKind,
} from "./attachments";

const bytes = bytesOf;
const [PDF, PNG, JPEG, ZIP, EXE] = [SAMPLE_PDF, SAMPLE_PNG, SAMPLE_JPEG, SAMPLE_ZIP, SAMPLE_EXE];
const file = (name: string, content: Uint8Array, type = ""): IncomingFile => ({ name, type, bytes: content });

describe("sniffBinaryKind", () => {
  it("knows each allowed kind by its first bytes, text by being UTF-8 without NUL", () => {
    expect(sniffBinaryKind(PDF)).toBe("pdf");
    expect(sniffBinaryKind(PNG)).toBe("png");
    expect(sniffBinaryKind(JPEG)).toBe("jpeg");
    expect(sniffBinaryKind(ZIP)).toBe("zip");
    expect(sniffBinaryKind(bytes("name,amount\nAda,3\n"))).toBe("text");
    expect(sniffBinaryKind(bytes("Grüße, 東京\n"))).toBe("text");
    expect(sniffBinaryKind(EXE)).toBeNull();
    expect(sniffBinaryKind(bytes("text", [0], "more"))).toBeNull();
    expect(sniffBinaryKind(bytes([0xc3, 0x28]))).toBeNull(); // invalid UTF-8
    expect(sniffBinaryKind(bytes("PK", [5, 6]))).toBe("text"); // an empty zip's end record is not PK\x03\x04
  });
});

describe("sanitizeFilename", () => {
  it("keeps the last part of any path, without control or invisible characters", () => {
    expect(sanitizeFilename("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFilename("C:\\Users\\ada\\report.pdf")).toBe("report.pdf");
    expect(sanitizeFilename("in\u0000vo\u0007ice\r\n.pdf")).toBe("invoice.pdf");
    expect(sanitizeFilename("invoice\u202efdp.exe")).toBe("invoicefdp.exe");
    expect(sanitizeFilename('a "quoted" <name>?.txt')).toBe("a _quoted_ _name__.txt");
    expect(sanitizeFilename("  ..hidden  ")).toBe("hidden");
    expect(sanitizeFilename("../..")).toBe("attachment");
    expect(sanitizeFilename("")).toBe("attachment");
  });

  it("caps the length, keeping the extension", () => {
    const long = `${"x".repeat(300)}.pdf`;
    const clean = sanitizeFilename(long);
    expect(clean).toHaveLength(120);
    expect(clean.endsWith(".pdf")).toBe(true);
  });
});

describe("checkAttachment", () => {
  it("accepts each allowed kind when the bytes are what the name says, typed by the bytes", () => {
    const cases: Array<[IncomingFile, string, string]> = [
      [file("scan.pdf", PDF, "application/pdf"), "scan.pdf", "application/pdf"],
      [file("shot.PNG", PNG, "image/png"), "shot.PNG", "image/png"],
      [file("photo.jpeg", JPEG, "image/jpeg"), "photo.jpeg", "image/jpeg"],
      [file("logs.zip", ZIP, "application/zip"), "logs.zip", "application/zip"],
      [file("notes.txt", bytes("hello"), "text/plain"), "notes.txt", "text/plain; charset=utf-8"],
      [
        file("list.csv", bytes("a,b\n1,2\n"), "application/vnd.ms-excel"),
        "list.csv",
        "text/csv; charset=utf-8",
      ],
      [
        file("bounce.eml", bytes("From: a@b.test\r\n\r\nhi\r\n"), "message/rfc822"),
        "bounce.eml",
        "message/rfc822",
      ],
    ];
    for (const [f, name, type] of cases) {
      const checked = checkAttachment(f);
      expect(checked, f.name).toMatchObject({ ok: true, attachment: { filename: name, contentType: type } });
    }
  });

  it("refuses a lying type: the bytes decide, not the declared type", () => {
    expect(checkAttachment(file("doc.pdf", EXE, "application/pdf"))).toEqual({
      ok: false,
      status: 400,
      error: ATTACHMENT_MESSAGES.mismatch("doc.pdf", "pdf"),
    });
    expect(checkAttachment(file("photo.png", PDF, "image/png"))).toMatchObject({
      ok: false,
      status: 400,
      error: "photo.png is not a real PNG file: its content does not match its type.",
    });
    expect(checkAttachment(file("notes.txt", PNG, "text/plain"))).toMatchObject({ ok: false, status: 400 });
    expect(checkAttachment(file("page.html", bytes("<script>alert(1)</script>"), "text/plain"))).toEqual({
      ok: false,
      status: 400,
      error: "page.html cannot be attached: only PDF, PNG, JPEG, ZIP, TXT, CSV or EML files are accepted.",
    });
    expect(checkAttachment(file("setup", EXE, "application/pdf"))).toMatchObject({ ok: false, status: 400 });
  });

  it("names a file without an extension by what it is", () => {
    expect(
      checkAttachment(file("../../etc/passwd", bytes("root:x:0:0\n"), "application/octet-stream")),
    ).toMatchObject({
      ok: true,
      attachment: { filename: "passwd.txt", kind: "txt" },
    });
    expect(checkAttachment(file("scan", PDF, ""))).toMatchObject({
      ok: true,
      attachment: { filename: "scan.pdf" },
    });
    expect(checkAttachment(file("data", bytes("a,b"), "text/csv"))).toMatchObject({
      ok: true,
      attachment: { filename: "data.csv", contentType: "text/csv; charset=utf-8" },
    });
  });

  it("refuses an empty file (400) and one over 10 MB (413)", () => {
    expect(checkAttachment(file("empty.txt", new Uint8Array(0)))).toEqual({
      ok: false,
      status: 400,
      error: "empty.txt is empty.",
    });
    const big = new Uint8Array(ATTACHMENT_MAX_BYTES + 1);
    big.set(PDF);
    expect(checkAttachment(file("big.pdf", big))).toEqual({
      ok: false,
      status: 413,
      error: "big.pdf is larger than 10 MB.",
    });
    const exactly = new Uint8Array(ATTACHMENT_MAX_BYTES);
    exactly.set(PDF);
    expect(checkAttachment(file("max.pdf", exactly)).ok).toBe(true);
  });
});

describe("checkAttachments", () => {
  it("takes at most five files; the first problem wins", () => {
    const five = Array.from({ length: 5 }, (_, i) => file(`n${i}.txt`, bytes("x")));
    expect(checkAttachments(five)).toMatchObject({ ok: true });
    expect(checkAttachments([...five, file("six.txt", bytes("x"))])).toEqual({
      ok: false,
      status: 400,
      error: "Attach at most 5 files to one message.",
    });
    expect(checkAttachments([file("a.txt", bytes("x")), file("b.pdf", EXE)])).toMatchObject({
      ok: false,
      error: ATTACHMENT_MESSAGES.mismatch("b.pdf", "pdf"),
    });
    expect(checkAttachments([])).toEqual({ ok: true, attachments: [] });
  });
});

describe("filesProblem (names and sizes, before the bytes are read)", () => {
  it("passes up to five non-empty files of at most 10 MB, and no files at all", () => {
    expect(filesProblem([])).toBeNull();
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.pdf`, size: ATTACHMENT_MAX_BYTES }));
    expect(filesProblem(five)).toBeNull();
  });

  it("refuses a sixth file (400), an empty one (400) and one over 10 MB (413), with the server's words", () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.pdf`, size: 10 }));
    expect(filesProblem(six)).toEqual({ status: 400, error: ATTACHMENT_MESSAGES.tooMany });
    expect(filesProblem([{ name: "../../empty.txt", size: 0 }])).toEqual({
      status: 400,
      error: ATTACHMENT_MESSAGES.empty("empty.txt"),
    });
    expect(filesProblem([{ name: "big\u0007.zip", size: ATTACHMENT_MAX_BYTES + 1 }])).toEqual({
      status: 413,
      error: "big.zip is larger than 10 MB.",
    });
  });

  it("bounds a whole message post: five files at the limit fit, with a megabyte for the rest", () => {
    expect(MESSAGE_POST_MAX_BYTES).toBe(5 * ATTACHMENT_MAX_BYTES + 1024 * 1024);
    expect(MESSAGE_POST_TOO_LARGE).toBe(
      "The request is too large: attach at most 5 files of up to 10 MB each to one message.",
    );
  });
});

describe("formatFileSize", () => {
  it("writes bytes, kilobytes and megabytes", () => {
    expect(formatFileSize(1)).toBe("1 byte");
    expect(formatFileSize(512)).toBe("512 bytes");
    expect(formatFileSize(14 * 1024 + 100)).toBe("14 KB");
    expect(formatFileSize(1024 * 1024)).toBe("1 MB");
    expect(formatFileSize(2.5 * 1024 * 1024)).toBe("2.5 MB");
    expect(formatFileSize(ATTACHMENT_MAX_BYTES)).toBe("10 MB");
  });
});

describe("download headers", () => {
  it("always download, nosniff, private, and an ASCII fallback name beside the exact one", () => {
    expect(contentDisposition("Rapport d'été.pdf")).toBe(
      "attachment; filename=\"Rapport d'ete.pdf\"; filename*=UTF-8''Rapport%20d%27%C3%A9t%C3%A9.pdf",
    );
    expect(contentDisposition("東京.txt")).toBe(
      "attachment; filename=\"attachment.txt\"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC.txt",
    );
    expect(attachmentHeaders({ filename: "a.pdf", contentType: "application/pdf", size: 12 })).toEqual({
      "Content-Type": "application/pdf",
      "Content-Length": "12",
      "Content-Disposition": "attachment; filename=\"a.pdf\"; filename*=UTF-8''a.pdf",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
  });
});
