import { describe, expect, it } from "vitest";
import { backupDue } from "./scheduled-backups.server";
import { checkVersion, versionLabel } from "./schema-version";

const journal = [
  { tag: "0000_init", when: 100 },
  { tag: "0001_more", when: 200 },
  { tag: "0002_newest", when: 300 },
];

describe("a backup's schema version against this code's migrations", () => {
  it("names the newest applied migration by its tag", () => {
    expect(versionLabel([100, 200], journal)).toBe("0001_more");
    expect(versionLabel([300, 100, 200], journal)).toBe("0002_newest");
    expect(versionLabel([100, 999], journal)).toBe("unknown-999");
    expect(versionLabel([], journal)).toBe("empty");
  });

  it("accepts the same version, with nothing to apply", () => {
    expect(checkVersion([100, 200, 300], journal)).toEqual({
      kind: "known",
      tag: "0002_newest",
      missing: [],
    });
  });

  it("accepts an older one, naming the newer migrations to apply", () => {
    expect(checkVersion([100, 200], journal)).toEqual({
      kind: "known",
      tag: "0001_more",
      missing: ["0002_newest"],
    });
    expect(checkVersion([100], journal)).toEqual({
      kind: "known",
      tag: "0000_init",
      missing: ["0001_more", "0002_newest"],
    });
  });

  it("refuses a newer one, and one with no migrations", () => {
    expect(checkVersion([100, 200, 300, 400], journal)).toEqual({
      kind: "newer",
      label: "unknown-400",
      codeTag: "0002_newest",
    });
    expect(checkVersion([], journal)).toEqual({ kind: "empty" });
  });
});

describe("when a scheduled backup is due", () => {
  const hour = 3_600_000;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  it("is due at once when there was none, then an interval after the last good one", () => {
    expect(backupDue(null, null, at(0), 24 * hour)).toBe(true);
    const good = { startedAt: at(0), ok: true };
    expect(backupDue(good, good, at(23 * hour), 24 * hour)).toBe(false);
    expect(backupDue(good, good, at(24 * hour), 24 * hour)).toBe(true);
  });

  it("retries a failed one after ten minutes (or the interval, when shorter), not at every offer", () => {
    const good = { startedAt: at(0) };
    const failed = { startedAt: at(24 * hour), ok: false };
    expect(backupDue(failed, good, at(24 * hour + 60_000), 24 * hour)).toBe(false);
    expect(backupDue(failed, good, at(24 * hour + 10 * 60_000), 24 * hour)).toBe(true);
    expect(backupDue({ startedAt: at(0), ok: false }, null, at(2000), 2000)).toBe(true);
  });
});
