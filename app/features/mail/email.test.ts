import { describe, expect, it } from "vitest";
import {
  formatAddress,
  mailbox,
  outboxMessageId,
  readStoredAddress,
  retryDelayMs,
  storeAddress,
} from "./email";

describe("retryDelayMs", () => {
  it("doubles from the base delay with each failed attempt", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it("never waits more than six hours", () => {
    expect(retryDelayMs(30, 30_000)).toBe(6 * 60 * 60 * 1000);
  });
});

describe("stored addresses", () => {
  it("keeps a name with commas and an address as one structured address", () => {
    const value = { name: "Alice, boss@victim.example,", address: "alice@example.com" };
    expect(readStoredAddress(storeAddress(value))).toEqual(value);
  });

  it("reads old rows as a bare address and refuses what it cannot read", () => {
    expect(readStoredAddress("Ada <ada@example.com>")).toEqual({ name: "", address: "ada@example.com" });
    expect(readStoredAddress("ada@example.com")).toEqual({ name: "", address: "ada@example.com" });
    expect(readStoredAddress("Alice, boss@victim.example, <a@example.com>")).toEqual({
      name: "",
      address: "a@example.com",
    });
    expect(readStoredAddress("a@example.com, boss@victim.example")).toBeNull();
    expect(readStoredAddress("{not json")).toBeNull();
    expect(readStoredAddress(null)).toBeNull();
  });

  it("shows an address for people", () => {
    expect(formatAddress({ name: 'Ada "the" Lovelace', address: "ada@example.com" })).toBe(
      '"Ada the Lovelace" <ada@example.com>',
    );
    expect(formatAddress({ name: "", address: "ada@example.com" })).toBe("ada@example.com");
  });
});

describe("outboxMessageId", () => {
  it("is the same for every attempt at one outbox row, in the sender's domain", () => {
    const id = "7d3f2c1e-0000-4000-8000-000000000001";
    expect(outboxMessageId(id, '"Portico" <support@portico.example>')).toBe(`<outbox.${id}@portico.example>`);
    expect(outboxMessageId(id, "support@portico.example")).toBe(
      outboxMessageId(id, "support@portico.example"),
    );
    expect(outboxMessageId(id, "nonsense")).toBe(`<outbox.${id}@portico.invalid>`);
  });
});

describe("mailbox", () => {
  it("names the recipient, on one line", () => {
    expect(mailbox("ada@example.com", " Ada\r\n  Lovelace ")).toEqual({
      name: "Ada Lovelace",
      address: "ada@example.com",
    });
    expect(mailbox("ada@example.com", 'Lovelace, "Ada" 100%')).toEqual({
      name: 'Lovelace, "Ada" 100%',
      address: "ada@example.com",
    });
  });

  it("stands the local part in for a missing or blank name, so the address is still in brackets", () => {
    expect(mailbox("visitor.one@example.com")).toEqual({
      name: "visitor.one",
      address: "visitor.one@example.com",
    });
    expect(mailbox("ada@example.com", " \n ")).toEqual({ name: "ada", address: "ada@example.com" });
    expect(mailbox("ada@example.com", null)).toEqual({ name: "ada", address: "ada@example.com" });
  });
});
