import { describe, expect, it } from "vitest";
import { landingAfterSignIn, safeRedirectPath } from "./redirect";

const FALLBACK = "/client/dashboard";

describe("safeRedirectPath", () => {
  it.each([
    "/",
    "/client/orders",
    "/client/invoice/abc-123?tab=items#top",
    "/blog/some-post?a=1&b=%20two",
    "/client/orders/",
  ])("follows the same-site path %s", (path) => {
    expect(safeRedirectPath(path, FALLBACK)).toBe(path);
  });

  it.each([
    ["nothing", null],
    ["an empty value", ""],
    ["a relative path", "client/orders"],
    ["another site", "https://evil.example/"],
    ["a protocol-relative address", "//evil.example"],
    ["a backslash after the slash", "/\\evil.example"],
    ["a tab that browsers drop", "/\t/evil.example"],
    ["a line feed", "/client\n/x"],
    ["a carriage return", "/client\r\nSet-Cookie: x=1"],
    ["a backslash later on", "/client\\..\\x"],
    ["a space", "/client orders"],
    ["a non-ASCII character", "/clíent"],
    ["a NUL", "/client\u0000"],
    ["javascript:", "javascript:alert(1)"],
    ["a huge value", `/${"a".repeat(3000)}`],
  ])("refuses %s", (_label, value) => {
    expect(safeRedirectPath(value, FALLBACK)).toBe(FALLBACK);
  });
});

describe("landingAfterSignIn", () => {
  it("sends admins to the back office whatever redirectTo says", () => {
    expect(landingAfterSignIn("admin", "http://x/client/login?redirectTo=/client/orders")).toBe(
      "/admin/dashboard",
    );
  });
  it("sends clients to a same-site redirectTo, else the dashboard", () => {
    expect(landingAfterSignIn("client", "http://x/client/login?redirectTo=/client/orders")).toBe(
      "/client/orders",
    );
    expect(landingAfterSignIn("client", "http://x/client/login?redirectTo=//evil.example")).toBe(
      "/client/dashboard",
    );
    expect(landingAfterSignIn(null, "http://x/client/two-factor")).toBe("/client/dashboard");
  });
});
