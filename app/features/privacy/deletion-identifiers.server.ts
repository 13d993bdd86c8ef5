/**
 * Account deletion (docs/decisions/0520-account-deletion.md): the account being deleted as every step
 * sees it, and how its identifiers (the verified address; the names, phone and company the client
 * typed) are found and replaced in kept text and JSON.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Tx } from "~/db/client.server";

/** The account being deleted, as each step of the deletion sees it, in the deletion's transaction. */
export interface DeletedAccount {
  tx: Tx;
  clientId: string;
  /** The old address, lower-cased (stored addresses are compared whatever their case). */
  emailLower: string;
  /** The placeholder address the kept rows get instead (`deletedEmail`). */
  placeholder: string;
}

/** The patterns that find the client's identifiers in kept text (see `identifiersOf`). */
export interface Identifiers {
  /** The verified address only: for text not tied to the client (other audit rows, emails). */
  emailPattern: string;
  /** The address, names, phone and company: for text by or about the client. */
  pattern: string;
  jsonAll: JsonPatterns;
  jsonEmail: JsonPatterns;
}

/**
 * Text not tied to the client (other rows of the audit log, emails) is searched for the verified
 * address only: a name or company is whatever the client typed (the owner's email, "status"), and must
 * never let a deletion rewrite the owner's audit rows or other people's emails.
 */
export function identifiersOf(
  email: string,
  found: { names: string[]; phone: string | null; company: string | null },
): Identifiers {
  const names = namesOf(found);
  return {
    emailPattern: emailRegex(email),
    pattern: identifiersRegex(email, names),
    jsonAll: jsonPatterns(email, names),
    jsonEmail: jsonPatterns(email, []),
  };
}

/** The names, phone and company searched for in kept text about the client (short ones would match words). */
function namesOf(found: { names: string[]; phone: string | null; company: string | null }) {
  const out = new Set<string>();
  for (const v of [...found.names, found.phone, found.company]) {
    const t = v?.trim();
    if (t && t.length >= 4) out.add(t);
  }
  return [...out];
}

const escapeRegex = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A PostgreSQL regular expression matching the address as a whole address only: not inside a longer
 * one ("wner@example.com" in "owner@example.com", "a@example.co" in "a@example.com"), still before a
 * full stop that ends a sentence.
 */
function emailRegex(email: string): string {
  return `(?<![A-Za-z0-9._%+-])${escapeRegex(email)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`;
}

/** A PostgreSQL regular expression matching the address, or any of `values` literally. */
function identifiersRegex(email: string, values: string[]): string {
  return [emailRegex(email), ...values.map(escapeRegex)].join("|");
}

/** How a string is written inside JSON text (`"` as `\"`, `\` as `\\`…), as jsonb::text shows it. */
const inJson = (v: string) => JSON.stringify(v).slice(1, -1);

/**
 * A pattern for finding the identifiers in a jsonb value's text, where a name with a quote or a
 * backslash is written escaped; and one for replacing them in the value's strings, in JavaScript (the
 * same syntax: the lookarounds and escapes of `emailRegex` mean the same in both).
 */
export interface JsonPatterns {
  find: string;
  replace: RegExp;
}

function jsonPatterns(email: string, values: string[]): JsonPatterns {
  return {
    find: [emailRegex(inJson(email)), ...values.map((v) => escapeRegex(inJson(v)))].join("|"),
    replace: new RegExp(identifiersRegex(email, values), "gi"),
  };
}

/** A JSON value with the identifiers replaced in every string (keys are field names: kept). */
function redactedJson(value: unknown, re: RegExp): unknown {
  if (typeof value === "string") return value.replace(re, REMOVED);
  if (Array.isArray(value)) return value.map((v) => redactedJson(v, re));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactedJson(v, re)]));
  }
  return value;
}

/**
 * Redacts jsonb columns value by value: a regular expression over a value's JSON text cannot tell a
 * quote that is part of a name from one that ends a string, and one crafted name could break the JSON
 * (and with it the deletion). Rows are found by their text, then each string inside is rewritten.
 */
export async function redactJsonRows<K extends string>(
  rows: Array<{ key: K; values: unknown[] }>,
  re: RegExp,
  write: (key: K, values: unknown[]) => Promise<unknown>,
): Promise<void> {
  for (const row of rows) {
    const next = row.values.map((v) => redactedJson(v, re));
    if (JSON.stringify(next) !== JSON.stringify(row.values)) await write(row.key, next);
  }
}

const REMOVED = "[removed]";

/** A text column with every identifier replaced (case-insensitive). */
export function redacted(column: AnyPgColumn | SQL, pattern: string): SQL {
  return sql`regexp_replace(${column}, ${pattern}, ${REMOVED}, 'gi')`;
}

export function matches(column: AnyPgColumn, pattern: string, kind: "text" | "jsonb"): SQL {
  return kind === "text" ? sql`${column} ~* ${pattern}` : sql`${column}::text ~* ${pattern}`;
}
