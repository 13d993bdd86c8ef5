import { describe, expect, it } from "vitest";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  isRejectedInput,
  loadErrorMessage,
} from "./errors";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => new Error("Failed query: select 1", { cause });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset socket", withCode("ECONNRESET")],
    ["a terminated backend", withCode("57P01", "terminating connection due to administrator command")],
    ["a statement timeout", withCode("57014", "canceling statement due to statement timeout")],
    ["a connection exception (class 08)", withCode("08006")],
    ["the pool's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a lost connection", new Error("Connection terminated unexpectedly")],
    ["pg's client-side query timeout", new Error("Query read timeout")],
    ["a closed PGlite", new Error("PGlite is closed")],
  ])("recognises %s, also wrapped by Drizzle", (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
  });

  it("does not take bugs or bad input for an outage", () => {
    expect(isDatabaseUnavailable(new Error("column x does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("42703"))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(withCode("22021")))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });
});

describe("isRejectedInput", () => {
  it("recognises a NUL character PostgreSQL refuses, wrapped or not", () => {
    const nul = withCode("22021", 'invalid byte sequence for encoding "UTF8": 0x00');
    expect(isRejectedInput(nul)).toBe(true);
    expect(isRejectedInput(wrapped(nul))).toBe(true);
  });

  it("does not take an outage or a bug for bad input", () => {
    expect(isRejectedInput(withCode("57P01"))).toBe(false);
    expect(isRejectedInput(new Error("boom"))).toBe(false);
  });
});

describe("loadErrorMessage", () => {
  it("tells a person the database is unavailable, in the 503 page's words", () => {
    expect(
      loadErrorMessage(wrapped(withCode("57P03", "the database system is starting up")), "Failed"),
    ).toEqual({
      message: DATABASE_UNAVAILABLE_MESSAGE,
      unavailable: true,
    });
  });

  it("keeps any other cause's own text (table names, values) to the log: the fallback is shown", () => {
    const bug = wrapped(withCode("42P01", 'relation "services" does not exist'));
    expect(loadErrorMessage(bug, "Failed to fetch services")).toEqual({
      message: "Failed to fetch services",
      unavailable: false,
    });
  });
});
