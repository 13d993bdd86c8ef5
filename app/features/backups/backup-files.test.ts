import { describe, expect, it } from "vitest";
import {
  backupFileName,
  backupsToPrune,
  detectBackupKind,
  formatBytes,
  parseBackupFileName,
} from "./backup-files";

describe("backup file names", () => {
  it("carry the UTC time and the schema version, and read back", () => {
    const at = new Date("2026-11-24T21:00:00.456Z");
    expect(backupFileName(at, "0013_quotes", "pglite")).toBe(
      "portico-2026-11-24T21-00-00Z-0013_quotes.pglite.tar.gz",
    );
    expect(backupFileName(at, "0013_quotes", "pgdump")).toBe(
      "portico-2026-11-24T21-00-00Z-0013_quotes.pgdump",
    );
    expect(parseBackupFileName("portico-2026-11-24T21-00-00Z-0013_quotes.pgdump")).toEqual({
      at: new Date("2026-11-24T21:00:00Z"),
      version: "0013_quotes",
      kind: "pgdump",
    });
    expect(parseBackupFileName("portico-2026-11-24T21-00-00Z-0013_quotes.pglite.tar.gz")?.kind).toBe(
      "pglite",
    );
  });

  it("keep a version's odd characters out of the name", () => {
    expect(backupFileName(new Date(0), "../x y", "pgdump")).toBe(
      "portico-1970-01-01T00-00-00Z-.._x_y.pgdump",
    );
  });

  it("are not read from other names", () => {
    for (const name of [
      "notes.txt",
      "portico-2026-11-24.pgdump",
      "portico-2026-11-24T21-00-00Z-x.tar",
      "x.pgdump",
    ]) {
      expect(parseBackupFileName(name), name).toBeNull();
    }
  });
});

describe("backup kinds by their first bytes", () => {
  it("tells gzip (PGlite) from a pg_dump archive and from anything else", () => {
    expect(detectBackupKind(new Uint8Array([0x1f, 0x8b, 8, 0]))).toBe("pglite");
    expect(detectBackupKind(new TextEncoder().encode("PGDMP\x01\x0e"))).toBe("pgdump");
    expect(detectBackupKind(new TextEncoder().encode("-- PostgreSQL database dump"))).toBeNull();
    expect(detectBackupKind(new Uint8Array([]))).toBeNull();
  });
});

describe("pruning a backup folder", () => {
  const name = (iso: string, kind: "pglite" | "pgdump" = "pgdump") =>
    backupFileName(new Date(iso), "0014_x", kind);

  it("deletes all but the newest `keep` backups, by the time in their names", () => {
    const files = [
      { name: name("2026-01-03T00:00:00Z"), mtimeMs: 1 },
      { name: name("2026-01-01T00:00:00Z"), mtimeMs: 3 },
      { name: name("2026-01-04T00:00:00Z", "pglite"), mtimeMs: 2 },
      { name: name("2026-01-02T00:00:00Z"), mtimeMs: 4 },
    ];
    expect(backupsToPrune(files, 2).sort()).toEqual(
      [name("2026-01-01T00:00:00Z"), name("2026-01-02T00:00:00Z")].sort(),
    );
    expect(backupsToPrune(files, 4)).toEqual([]);
    expect(backupsToPrune(files, 1)).toHaveLength(3);
  });

  it("leaves every other file alone", () => {
    const files = [
      { name: "README.txt", mtimeMs: 0 },
      { name: ".portico-backup-1-ab.partial", mtimeMs: 0 },
      { name: name("2026-01-01T00:00:00Z"), mtimeMs: 0 },
    ];
    expect(backupsToPrune(files, 0)).toEqual([name("2026-01-01T00:00:00Z")]);
  });

  it("orders backups of the same second by modification time", () => {
    const files = [
      { name: name("2026-01-01T00:00:00Z"), mtimeMs: 10 },
      { name: backupFileName(new Date("2026-01-01T00:00:00Z"), "0015_y", "pgdump"), mtimeMs: 20 },
    ];
    expect(backupsToPrune(files, 1)).toEqual([name("2026-01-01T00:00:00Z")]);
  });
});

describe("formatBytes", () => {
  it("reads as people say sizes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(4.4 * 1024 * 1024)).toBe("4.4 MB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GB");
  });
});
