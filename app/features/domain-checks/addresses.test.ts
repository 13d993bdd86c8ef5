import { describe, expect, it } from "vitest";
import { classifyAddress } from "./addresses";

describe("classifyAddress (issue 39, item 7)", () => {
  it.each(["93.184.215.14", "1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])(
    "allows the public unicast address %s",
    (address) => {
      expect(classifyAddress(address)).toMatchObject({ allowed: true });
    },
  );

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "linkLocal"],
    ["fd00:ec2::254", "metadata"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.100.100.200", "carrierGradeNat"],
    ["fc00::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.192", "reserved"],
    ["2001:db8::1", "reserved"],
    ["64:ff9b::a00:1", "rfc6052"],
    ["2002:7f00:1::", "6to4"],
    ["::7f00:1", "notGlobal"],
  ])("refuses %s (%s)", (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict).toMatchObject({ allowed: false, range });
    if (!verdict.allowed) expect(verdict.reason).not.toBe("");
  });

  it("judges an IPv4-mapped IPv6 address as the IPv4 address it carries", () => {
    expect(classifyAddress("::ffff:127.0.0.1")).toMatchObject({ allowed: false, range: "loopback" });
    expect(classifyAddress("::ffff:169.254.169.254")).toMatchObject({ allowed: false, range: "metadata" });
    expect(classifyAddress("::ffff:10.1.2.3")).toMatchObject({ allowed: false, range: "private" });
    expect(classifyAddress("::ffff:1.1.1.1")).toEqual({ allowed: true, address: "1.1.1.1", family: 4 });
  });

  it("refuses what is not an address", () => {
    expect(classifyAddress("example.com")).toMatchObject({ allowed: false, range: "invalid" });
    expect(classifyAddress("")).toMatchObject({ allowed: false, range: "invalid" });
    expect(classifyAddress("2130706433")).toMatchObject({ allowed: false, range: "invalid" });
  });

  it("opens loopback, and loopback only, with the tests' setting", () => {
    expect(classifyAddress("127.0.0.1", { allowLoopback: true })).toEqual({
      allowed: true,
      address: "127.0.0.1",
      family: 4,
    });
    expect(classifyAddress("::1", { allowLoopback: true })).toEqual({
      allowed: true,
      address: "::1",
      family: 6,
    });
    for (const address of ["10.0.0.1", "169.254.169.254", "100.64.0.1", "fd00:ec2::254", "192.168.0.1"]) {
      expect(classifyAddress(address, { allowLoopback: true }).allowed).toBe(false);
    }
  });
});
