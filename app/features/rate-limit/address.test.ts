import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rateLimitAddress } from "./address";

describe("rateLimitAddress", () => {
  it("counts an IPv4 address whole, and an IPv4-mapped IPv6 address as that IPv4 address", () => {
    expect(rateLimitAddress("192.0.2.7")).toBe("192.0.2.7");
    expect(rateLimitAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(rateLimitAddress("::FFFF:c000:0207")).toBe("192.0.2.7");
  });

  it("counts every IPv6 address of one /64 as one, however it is written", () => {
    const key = rateLimitAddress("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    for (const other of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0DB8:0001:0002:0:0:0:abcd",
      "2001:db8:1:2:a:b:c:d",
    ])
      expect(rateLimitAddress(other), other).toBe(key);
    expect(rateLimitAddress("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(rateLimitAddress("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps what is not an address as it is, and no address as unknown", () => {
    expect(rateLimitAddress(null)).toBe("unknown");
    expect(rateLimitAddress(undefined)).toBe("unknown");
    expect(rateLimitAddress("")).toBe("unknown");
    expect(rateLimitAddress("not-an-ip")).toBe("not-an-ip");
  });

  it("never throws, whatever a forwarded header held", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.ipV6(),
          fc.ipV4Extended(),
          fc.ipV6().map((a) => `${a}%eth0`),
        ),
        (v) => {
          expect(typeof rateLimitAddress(v)).toBe("string");
        },
      ),
    );
  });
});
