import { describe, expect, it } from "vitest";
import { ATTACHMENT_MAX_BYTES } from "~/features/orders/attachments";
import { SAMPLE_PNG } from "~/features/testing/sample-files";
import {
  FORM_POST_MAX_BYTES,
  MESSAGE_POST_MAX_BYTES,
  messageFiles,
  ORDER_POST_MESSAGES,
  readOrderPost,
} from "./order-post.server";

const post = (headers: Record<string, string>, body?: BodyInit) =>
  new Request("http://x/admin/orders/1", { method: "POST", headers, body });

describe("reading a post to the owner's order page", () => {
  it("refuses a declared size over the bounds before reading the body: 413 with the form's shape", async () => {
    const big = await readOrderPost(
      post({
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(MESSAGE_POST_MAX_BYTES + 1),
      }),
    );
    expect(big).toEqual({
      ok: false,
      status: 413,
      error: ORDER_POST_MESSAGES.tooLarge,
      fieldErrors: { files: ORDER_POST_MESSAGES.tooLarge },
    });
    const form = await readOrderPost(
      post({
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(FORM_POST_MAX_BYTES + 1),
      }),
    );
    expect(form).toMatchObject({ ok: false, status: 413, error: ORDER_POST_MESSAGES.formTooLarge });
    // Five files of 10 MB and a message fit.
    expect(MESSAGE_POST_MAX_BYTES).toBeGreaterThan(5 * ATTACHMENT_MAX_BYTES + 40_000);
  });

  it("reads a form within bounds", async () => {
    const body = new URLSearchParams({ intent: "transition", to: "paid" });
    const read = await readOrderPost(post({ "content-type": "application/x-www-form-urlencoded" }, body));
    expect(read.ok && read.form.get("to")).toBe("paid");
  });

  it("takes the chosen files, skips an empty input, and refuses too many or too large before reading", async () => {
    const form = new FormData();
    form.append("files", new File([], ""));
    form.append("files", new File([new Uint8Array(SAMPLE_PNG)], "shot.png", { type: "image/png" }));
    const read = await messageFiles(form);
    expect(read.ok && read.files.map((f) => [f.name, f.bytes.length])).toEqual([
      ["shot.png", SAMPLE_PNG.length],
    ]);

    const many = new FormData();
    for (let i = 0; i < 6; i++) many.append("files", new File([new Uint8Array(SAMPLE_PNG)], `${i}.png`));
    expect(await messageFiles(many)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { files: expect.any(String) },
    });

    const large = new FormData();
    large.append("files", new File([new Uint8Array(ATTACHMENT_MAX_BYTES + 1)], "huge.pdf"));
    expect(await messageFiles(large)).toMatchObject({
      ok: false,
      status: 413,
      error: "huge.pdf is larger than 10 MB.",
    });
  });
});
