import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import {
  isExpectedError,
  loggerOptions,
  REDACTED,
  safeUrl,
  serializeError,
  serializeRequest,
  summarize,
} from "./log-serializers";

/** What pg-pool emits when PostgreSQL ends an idle connection: the error, with the whole client on it. */
function lostConnection(): Error {
  const error = new pg.DatabaseError("terminating connection due to administrator command", 116, "error");
  error.code = "57P01";
  error.severity = "FATAL";
  const client = new pg.Client({
    connectionString: "postgres://portico:db-password-123@db.internal:5432/portico",
  });
  Object.assign(client, { processID: 4242, secretKey: 987654321 });
  client.on("error", () => {});
  (error as Error & { client?: unknown }).client = client;
  return error;
}

const FORBIDDEN = [
  "secretKey",
  "987654321",
  "processID",
  "db-password-123",
  "_events",
  "connectionParameters",
];

function logged(write: (logger: pino.Logger) => void): string[] {
  const lines: string[] = [];
  const logger = pino({ level: "debug", ...loggerOptions }, { write: (l: string) => lines.push(l) });
  write(logger);
  return lines;
}

describe("serializeError", () => {
  it("logs a lost PostgreSQL connection by type, message and code: no client, no stack", () => {
    const out = serializeError(lostConnection());
    expect(out).toEqual({
      type: "DatabaseError",
      message: "terminating connection due to administrator command",
      code: "57P01",
    });
  });

  it("drops a failed query's parameters and keeps the database's reason as the cause", () => {
    const cause = lostConnection();
    const error = new DrizzleQueryError(
      'select "user_id" from "session" where "token" = $1',
      ["session-token-abcdef", "$argon2id$hash"],
      cause,
    );
    const out = serializeError(error);
    expect(out.message).toBe('Failed query: select "user_id" from "session" where "token" = $1');
    expect(out.cause).toMatchObject({ type: "DatabaseError", code: "57P01" });
    // An outage, not a bug: no stack.
    expect(out.stack).toBeUndefined();
    const text = JSON.stringify(out);
    for (const secret of ["session-token-abcdef", "argon2id", ...FORBIDDEN])
      expect(text).not.toContain(secret);
  });

  it("keeps the stack, frames only, for unexpected errors", () => {
    const out = serializeError(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(out.type).toBe("TypeError");
    expect(out.stack).toMatch(/^\s+at /);
    expect(out.stack!.split("\n").length).toBeLessThanOrEqual(12);
    expect(serializeError(new Error("something odd")).stack).toBeDefined();
  });

  it("tells expected errors (outages, refused input, network, 4xx) from bugs", () => {
    expect(isExpectedError(lostConnection())).toBe(true);
    expect(
      isExpectedError(
        Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNREFUSED" }),
      ),
    ).toBe(true);
    expect(isExpectedError(Object.assign(new Error("Invalid login"), { code: "EAUTH" }))).toBe(true);
    expect(isExpectedError(Object.assign(new Error("Payload too large"), { status: 413 }))).toBe(true);
    expect(isExpectedError(Object.assign(new TypeError("bad"), { code: "ERR_INVALID_ARG_TYPE" }))).toBe(
      false,
    );
    expect(isExpectedError(new Error("failed with status code 503"))).toBe(true);
    expect(isExpectedError(new Error("plain"))).toBe(false);
  });

  it("hides credentials in URLs and tokens in addresses inside messages", () => {
    const out = serializeError(
      new Error(
        "could not reach postgres://portico:hunter2@db:5432/p for /api/auth/verify-email?token=eyJabc.def",
      ),
    );
    expect(out.message).toBe(
      `could not reach postgres://portico:${REDACTED}@db:5432/p for /api/auth/verify-email?token=${REDACTED}`,
    );
  });

  it("gives the same answer for pino's own serialization of an error (what pino-http passes)", () => {
    const error = lostConnection();
    expect(serializeError(pino.stdSerializers.err(error))).toEqual(serializeError(error));
  });

  it("serializes non-errors without throwing", () => {
    expect(serializeError("boom")).toEqual({ type: "Error", message: "boom" });
    expect(serializeError(undefined)).toEqual({ type: "undefined", message: "undefined" });
  });
});

describe("request addresses", () => {
  it("masks verification and reset tokens and one-time codes, and keeps the rest", () => {
    expect(safeUrl("/api/auth/verify-email?token=eyJhbGci.x.y&callbackURL=%2Fclient%2Flogin")).toBe(
      `/api/auth/verify-email?token=${REDACTED}&callbackURL=%2Fclient%2Flogin`,
    );
    expect(safeUrl("/api/auth/reset-password/AbC123tokEn?callbackURL=%2Fclient%2Freset-password")).toBe(
      `/api/auth/reset-password/${REDACTED}?callbackURL=%2Fclient%2Freset-password`,
    );
    expect(safeUrl("/client/reset-password?token=AbC123")).toBe(`/client/reset-password?token=${REDACTED}`);
    expect(safeUrl("/client/orders?status=paid&q=ssl&page=2")).toBe(
      "/client/orders?status=paid&q=ssl&page=2",
    );
    expect(safeUrl("/client/login?code=123456#frag")).toBe(`/client/login?code=${REDACTED}`);
  });

  it("logs a request by id, method and masked address, never its headers", () => {
    const out = serializeRequest({
      id: "r-1",
      method: "GET",
      url: "/client/reset-password?token=abc",
      headers: { cookie: "__Host-portico.session_token=secret" },
    } as never);
    expect(out).toEqual({ id: "r-1", method: "GET", url: `/client/reset-password?token=${REDACTED}` });
  });
});

describe("summarize", () => {
  it("reduces objects that are not plain data to their class name and masks secret-named keys", () => {
    const client = new pg.Client({ connectionString: "postgres://u:db-password-123@h/db" });
    expect(
      summarize({
        user: { email: "a@example.com", password: "Str0ng!Passw0rd" },
        client,
        code: "INVALID_TOKEN",
        nested: { token: "t", headers: { cookie: "c" } },
      }),
    ).toEqual({
      user: { email: "a@example.com", password: REDACTED },
      client: "[Client]",
      code: "INVALID_TOKEN",
      nested: { token: REDACTED, headers: "[Object]" },
    });
    expect(summarize({ code: "123456" })).toEqual({ code: REDACTED });
  });
});

describe("a logger built with loggerOptions", () => {
  it("writes short lines with no client, no secret and no dump, whatever is passed", () => {
    const lines = logged((logger) => {
      logger.warn({ err: lostConnection() }, "database connection lost (idle)");
      logger.error({ auth: ["sign-in failed", lostConnection(), { password: "Str0ng!Passw0rd" }] }, "auth");
      logger.info(
        {
          password: "Str0ng!Passw0rd",
          user: { token: "t0k" },
          client: { secretKey: 987654321, processID: 4242 },
        },
        "misc",
      );
      logger
        .child({ req: { id: "r-2", method: "POST", url: "/x?token=t0k", headers: { cookie: "c00kie" } } })
        .error({ err: new Error("request failed") }, "failed");
    });
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.length).toBeLessThan(2048);
      for (const secret of [...FORBIDDEN, "Str0ng!Passw0rd", "t0k", "c00kie"])
        expect(line).not.toContain(secret);
    }
    expect(JSON.parse(lines[0]!).err).toEqual({
      type: "DatabaseError",
      message: "terminating connection due to administrator command",
      code: "57P01",
    });
    expect(JSON.parse(lines[3]!).req).toEqual({ id: "r-2", method: "POST", url: `/x?token=${REDACTED}` });
  });
});
