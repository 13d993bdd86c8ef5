/**
 * Test support for the client portal: signed-in clients without the mailbox round trip, and a reader
 * of the /api/events stream.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { user } from "~/db/schema";
import { location, Session } from "./browserless";

export const PASSWORD = "Str0ng!Passw0rd";

let ip = 0;

/** Registers a client, confirms the email in the database and signs in. Returns the session and user id. */
export async function signedInClient(
  baseUrl: string,
  db: Database,
  name: string,
): Promise<{ session: Session; userId: string; email: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}.${++ip}@example.com`;
  const session = new Session(baseUrl, `198.18.${Math.floor(ip / 250)}.${(ip % 250) + 1}`);
  const reg = await session.post("/client/register", {
    name,
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  if (location(reg) !== "/client/verify-email") throw new Error(`registration failed: ${reg.status}`);
  const [row] = await db.update(user).set({ emailVerified: true }).where(eq(user.email, email)).returning();
  const login = await session.post("/client/login", { email, password: PASSWORD });
  if (location(login) !== "/client/dashboard") throw new Error(`login failed: ${login.status}`);
  // The first portal page creates the client record (the access gate).
  const dash = await session.get("/client/dashboard");
  if (dash.status !== 200) throw new Error(`dashboard: ${dash.status}`);
  await dash.text();
  return { session, userId: row!.id, email };
}

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** Reads an SSE response: events and comment lines, with waiting helpers. */
export class EventReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = "";
  private waiters: Array<() => void> = [];
  private reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
    void this.pump();
  }

  private async pump() {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let cut = this.buffer.indexOf("\n\n");
        while (cut >= 0) {
          this.parse(this.buffer.slice(0, cut));
          this.buffer = this.buffer.slice(cut + 2);
          cut = this.buffer.indexOf("\n\n");
        }
        this.notify();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.notify();
  }

  private parse(block: string) {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    let hasField = false;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) this.comments.push(line.slice(1).trim());
      else if (line.startsWith("id: ")) {
        id = line.slice(4);
        hasField = true;
      } else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) {
        data.push(line.slice(6));
        hasField = true;
      }
    }
    if (hasField && data.length) this.events.push({ id, event, data: data.join("\n") });
  }

  private notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when `condition` holds (checked after every chunk), or rejects after `timeoutMs`. */
  async until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.ended) throw new Error(`stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  data(): Array<Record<string, unknown>> {
    return this.events.map((e) => JSON.parse(e.data) as Record<string, unknown>);
  }

  async close() {
    await this.reader.cancel().catch(() => {});
  }
}

/** Opens /api/events for a session (optionally resuming after `lastEventId`). */
export async function openEvents(baseUrl: string, session: Session | null, lastEventId?: number) {
  const headers: Record<string, string> = {};
  if (session) headers.cookie = session.cookieHeader;
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  const res = await fetch(new URL("/api/events", baseUrl), { headers });
  return res;
}
