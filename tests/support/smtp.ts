/**
 * A real SMTP server (npm smtp-server) on 127.0.0.1 for tests: it accepts every message and keeps it,
 * parsed with mailparser, so tests assert what actually arrived.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  port: number;
  url: string;
  received: ParsedMail[];
  close(): Promise<void>;
}

export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (for "SMTP is down"), found by opening and closing a server. */
export async function unusedPort(): Promise<number> {
  const smtp = await startTestSmtp();
  await smtp.close();
  return smtp.port;
}

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${last}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
