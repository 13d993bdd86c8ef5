import { describe, expect, it } from "vitest";
import { failureDetail, withContactFallback } from "./contact-client";

const post = (fields: Record<string, string>) =>
  new Request("http://127.0.0.1/?index", { method: "POST", body: new URLSearchParams(fields) });

const contact = {
  intent: "contact",
  business_email: "desk@example.com",
  name: "Ada",
  email: "ada@example.com",
  subject: "Hello",
  message: "Typed with care",
};

describe("withContactFallback", () => {
  it("passes the server's answer through", async () => {
    const answer = { form: "contact", ok: true, email: "ada@example.com" };
    await expect(withContactFallback(post(contact), async () => answer)).resolves.toBe(answer);
  });

  it("turns a post that got no answer into the spec's alert, keeping what was typed", async () => {
    const result = await withContactFallback(post(contact), async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(result).toEqual({
      form: "contact",
      ok: false,
      status: 0,
      error:
        "There was an error sending your message. Network error. Please check your connection. Please try again or contact us directly at desk@example.com.",
      field: null,
      values: { name: "Ada", email: "ada@example.com", subject: "Hello", message: "Typed with care" },
    });
  });

  it("leaves redirects and other forms' failures alone", async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: "/client/login" } });
    await expect(
      withContactFallback(post(contact), async () => {
        throw redirect;
      }),
    ).rejects.toBe(redirect);
    const error = new Error("boom");
    await expect(
      withContactFallback(post({ intent: "newsletter", email: "a@b.c" }), async () => {
        throw error;
      }),
    ).rejects.toBe(error);
  });
});

describe("failureDetail", () => {
  it("names the status when there was one, else the network", () => {
    expect(failureDetail({ status: 502, statusText: "Bad Gateway", internal: false, data: "" })).toBe(
      "Server error: 502",
    );
    expect(failureDetail(new Error("Unexpected server response 500"))).toBe("Server error: 500");
    expect(failureDetail(new DOMException("The operation was aborted.", "AbortError"))).toBe(
      "Request timed out.",
    );
    expect(failureDetail(new TypeError("Failed to fetch"))).toBe(
      "Network error. Please check your connection.",
    );
  });
});
