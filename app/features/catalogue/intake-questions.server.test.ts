/** The owner's edit of a service's intake questions, and the seed's questions reaching older databases. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { auditLog, type IntakeQuestion, services } from "~/db/schema";
import { seedDatabase } from "~/db/seed.server";
import type { ChangeDeps } from "~/features/audit/audit.server";
import {
  openSeededMemoryDatabase,
  TEST_BUSINESS,
  TEST_PUBLIC_URL,
} from "~/features/testing/memory-database.server";
import { updateIntakeQuestions } from "./intake-questions.server";
import { SEED_SERVICES } from "./seed-data";

describe("intake questions in the catalogue", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let deps: ChangeDeps;
  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
    deps = {
      db,
      config: { publicUrl: TEST_PUBLIC_URL, business: TEST_BUSINESS },
      actor: { id: null, email: "owner@portico.test" },
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
  });

  const seed = (slug: string) => SEED_SERVICES.find((s) => s.slug === slug)!;
  const questionsOf = async (id: string) =>
    (await db.select().from(services).where(eq(services.id, id)))[0]!.intakeQuestions;

  it("seeds every service with its questions", async () => {
    for (const s of SEED_SERVICES) expect(await questionsOf(s.id!)).toEqual(s.intakeQuestions);
  });

  it("saves the owner's questions with an audit row of before and after", async () => {
    const ssl = seed("ssl-setup");
    const questions: IntakeQuestion[] = [
      {
        key: "domains",
        label: "Domains",
        kind: "textarea",
        required: true,
        maxLength: 400,
        hint: "One per line",
      },
    ];
    expect(await updateIntakeQuestions(deps, ssl.id!, questions)).toEqual({
      ok: true,
      message: "SSL & HTTPS Setup asks 1 question after payment.",
    });
    expect(await questionsOf(ssl.id!)).toEqual(questions);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, ssl.id!));
    expect(audit).toMatchObject({
      action: "catalogue.intake",
      entity: "service",
      actorEmail: "owner@portico.test",
      before: { intakeQuestions: ssl.intakeQuestions },
      after: { intakeQuestions: questions },
    });
    expect(await updateIntakeQuestions(deps, ssl.id!, [])).toEqual({
      ok: true,
      message: "SSL & HTTPS Setup asks no questions after payment.",
    });
  });

  it("refuses a bad list and an unknown service", async () => {
    const bad = [
      { key: "Bad Key", label: "x", kind: "text", required: true, maxLength: 10 },
    ] as IntakeQuestion[];
    expect(await updateIntakeQuestions(deps, seed("acronis-setup").id!, bad)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await updateIntakeQuestions(deps, "00000000-0000-4000-8000-000000000000", [])).toEqual({
      ok: false,
      status: 404,
      error: "Service not found.",
    });
    expect(await updateIntakeQuestions(deps, "nope", [])).toMatchObject({ status: 404 });
  });

  it("gives a database seeded before questions existed the seed's, keeping what the owner set", async () => {
    const migration = seed("email-migration");
    const backup = seed("acronis-setup");
    await db.update(services).set({ intakeQuestions: null }).where(eq(services.id, migration.id!));
    await db.update(services).set({ intakeQuestions: [] }).where(eq(services.id, backup.id!));
    expect(await seedDatabase(db)).toEqual({ servicesAdded: 0, plansAdded: 0 });
    expect(await questionsOf(migration.id!)).toEqual(migration.intakeQuestions);
    expect(await questionsOf(backup.id!)).toEqual([]);
  });
});
