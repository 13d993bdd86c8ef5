/**
 * `npm run admin:create -- --email you@example.com [--name …] [--password …]`.
 * On PostgreSQL it connects directly. On the embedded database it goes through the running server's
 * local channel (see features/admin/local-channel.server.ts) when a server holds the folder, else opens
 * it directly.
 * Without --password it prompts on a terminal, and otherwise generates a password and prints it.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "~/config.server";
import { liveChannel } from "~/db/channel-file.server";
import { openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import {
  type AdminCreateResult,
  AdminInputError,
  adminCreateInput,
  createOrPromoteAdmin,
  generatePassword,
} from "./admin-accounts.server";
import { serverPasswordError } from "./common-passwords.server";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Reads a password without echo, or null when not on a terminal. */
  promptPassword: ((question: string) => Promise<string>) | null;
}

const USAGE = 'Usage: npm run admin:create -- --email you@example.com [--name "Your Name"] [--password "…"]';

/** Returns the exit code. */
export async function runAdminCreate(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let values: { email?: string; name?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: "string" },
        name: { type: "string" },
        password: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const parsed = adminCreateInput.safeParse({ email: values.email ?? "", name: values.name });
  if (!parsed.success) {
    io.err(`${values.email ? parsed.error.issues[0]?.message : "--email is required"}\n${USAGE}`);
    return 2;
  }
  const input = parsed.data;

  let password: string | null = values.password ?? null;
  let generated = false;
  if (password === null && io.promptPassword) {
    io.out("Enter the password, or press Enter to keep an existing account's password.");
    const first = await io.promptPassword("Password: ");
    if (first) {
      const second = await io.promptPassword("Repeat password: ");
      if (first !== second) {
        io.err("The passwords do not match; nothing was changed.");
        return 1;
      }
      password = first;
    }
  }
  if (password !== null) {
    const problem = serverPasswordError(password);
    if (problem) {
      io.err(`${problem}; nothing was changed.`);
      return 1;
    }
  }

  const config = loadConfig(env);
  // Without a terminal, a new account gets a generated password (an existing one keeps its own).
  let where = "";
  const ask = async (pw: string | null): Promise<AdminCreateResult> => {
    if (config.database.kind === "pglite") {
      const channel = liveChannel(config.database.dir);
      if (channel) {
        const res = await fetch(`http://127.0.0.1:${channel.port}/admin-create`, {
          method: "POST",
          headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
          body: JSON.stringify({ ...input, password: pw }),
        }).catch((error: unknown) => {
          throw new Error(
            `The server (pid ${channel.pid}) holds the embedded database but its admin channel did not answer: ${(error as Error).message}`,
          );
        });
        const body = (await res.json()) as AdminCreateResult & { error?: string };
        if (res.status === 400) throw new AdminInputError(body.error ?? "bad input");
        if (!res.ok) throw new Error(body.error ?? `the server answered ${res.status}`);
        where = `through the running server (pid ${channel.pid}) on the embedded database at ${config.database.dir}`;
        return body;
      }
    }
    const database = await openDatabase(config.database);
    try {
      await migrateDatabase(database);
      await seedDatabase(database.db);
      where =
        config.database.kind === "postgres"
          ? `directly on PostgreSQL (${new URL(config.database.url).host}${new URL(config.database.url).pathname})`
          : `directly on the embedded database at ${config.database.dir} (no server was running)`;
      return await createOrPromoteAdmin(database.db, { ...input, password: pw });
    } finally {
      await database.close();
    }
  };

  let result: AdminCreateResult;
  try {
    try {
      result = await ask(password);
    } catch (error) {
      if (!(error instanceof AdminInputError) || password !== null) throw error;
      // A new account needs a password and none was given: generate one.
      password = generatePassword();
      generated = true;
      result = await ask(password);
    }
  } catch (error) {
    io.err(`admin:create failed: ${(error as Error).message}`);
    return 1;
  }

  const verb = {
    created: "Created the admin account",
    promoted: "Made the existing account an admin:",
    "already-admin": "The account was already an admin:",
  }[result.outcome];
  io.out(`${verb} ${result.email}, ${where}.`);
  if (generated) io.out(`Its password (shown once, keep it safe): ${password}`);
  else if (result.passwordSet) io.out("Its password is the one you gave.");
  else io.out("Its password was not changed.");
  io.out(`Sign in at ${config.publicUrl}/client/login; you land on /admin/dashboard.`);
  return 0;
}
