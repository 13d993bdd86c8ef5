/**
 * The local admin channel of a server running on the embedded database. PGlite lets one process open
 * its folder, so `npm run admin:create` cannot open the database while the site runs; it asks the
 * server instead, through a channel only the local user can use:
 * - a separate HTTP listener bound to 127.0.0.1 on a random port (never the public app, so no reverse
 *   proxy forwards to it), and
 * - a random token in `.admin-channel` beside the data folder, readable by the owner only (0600).
 * The file also names the server's pid, so a stale file (after a crash) is recognised.
 *
 * Two requests: `POST /admin-create` (JSON in and out) and `POST /backup` (`npm run db:backup`), answered
 * with PGlite's own `dumpDataDir()` tarball, its schema version in `X-Portico-Schema-Version` (ADR 0902).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { Logger } from "pino";
import {
  BACKUP_STARTED_HEADER,
  type ChannelBackup,
  type ChannelFile,
  channelFilePath,
  readChannelFile,
  SCHEMA_VERSION_HEADER,
} from "~/db/channel-file.server";
import type { Database } from "~/db/client.server";
import {
  AdminInputError,
  adminCreateInput,
  createOrPromoteAdmin,
} from "~/features/accounts/admin-accounts.server";

const MAX_BODY = 4096;

export interface AdminChannel {
  close(): Promise<void>;
}

export async function startAdminChannel(deps: {
  pgliteDir: string;
  db: Database;
  logger: Logger;
  backup?: ChannelBackup;
}): Promise<AdminChannel> {
  const token = randomBytes(32).toString("base64url");
  const expected = Buffer.from(`Bearer ${token}`);
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply(401, { error: "not authorised" });
    if (req.method === "POST" && req.url === "/backup" && deps.backup) {
      req.resume();
      void sendBackup(deps.backup, res, deps.logger).catch((error: unknown) => {
        deps.logger.error({ err: error }, "db:backup through the local channel failed");
        if (!res.headersSent) reply(500, { error: "the server could not make the backup (see its log)" });
        else res.destroy();
      });
      return;
    }
    if (req.method !== "POST" || req.url !== "/admin-create") return reply(404, { error: "not found" });
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reply(413, { error: "request too large" });
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", async () => {
      if (size > MAX_BODY) return;
      try {
        const raw = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        const parsed = adminCreateInput.safeParse(raw);
        if (!parsed.success) return reply(400, { error: parsed.error.issues[0]?.message ?? "bad input" });
        const password = typeof raw.password === "string" ? raw.password : null;
        const result = await createOrPromoteAdmin(deps.db, { ...parsed.data, password });
        deps.logger.info(
          { email: result.email, outcome: result.outcome },
          "admin:create through the local channel",
        );
        reply(200, result);
      } catch (error) {
        if (error instanceof AdminInputError || error instanceof SyntaxError)
          return reply(400, { error: error.message });
        deps.logger.error({ err: error }, "admin:create failed");
        reply(500, { error: "the server could not create the admin (see its log)" });
      }
    });
  });
  server.on("error", (error) => deps.logger.error({ err: error }, "admin channel error"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const file = channelFilePath(deps.pgliteDir);
  const content: ChannelFile = { pid: process.pid, port, token };
  writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
  return {
    close: async () => {
      // Only our own file goes (another process may have taken the folder over since).
      if (readChannelFile(deps.pgliteDir)?.token === token) rmSync(file, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function sendBackup(backup: ChannelBackup, res: ServerResponse, logger: Logger) {
  const startedAt = new Date();
  const { version, blob } = await backup();
  res.writeHead(200, {
    "content-type": "application/gzip",
    "content-length": String(blob.size),
    "cache-control": "no-store",
    [SCHEMA_VERSION_HEADER]: version,
    [BACKUP_STARTED_HEADER]: startedAt.toISOString(),
  });
  logger.info({ version, bytes: blob.size }, "db:backup through the local channel");
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(blob.stream() as Parameters<typeof Readable.fromWeb>[0])
      .on("error", reject)
      .pipe(res)
      .on("finish", resolve)
      .on("error", reject);
  });
}
