/**
 * The owner edits a service's intake questions (the brief, ADR 0512) in the back office's catalogue.
 * Saved with an audit row in one transaction. The questions are not on the public pages, so neither the
 * page cache nor other processes need telling: the brief reads them from the database each time.
 */
import { eq } from "drizzle-orm";
import { services } from "~/db/schema";
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { type IntakeQuestion, intakeQuestionsOf, intakeQuestionsSchema } from "./intake-questions";

/**
 * Replaces a service's questions (an empty list: the service asks nothing). The list is checked again
 * here whoever built it; orders already answered keep the questions they answered.
 */
export async function updateIntakeQuestions(
  deps: ChangeDeps,
  serviceId: string,
  questions: readonly IntakeQuestion[],
): Promise<ChangeResult> {
  const checked = intakeQuestionsSchema.safeParse(questions);
  if (!checked.success) {
    return {
      ok: false,
      status: 400,
      error: checked.error.issues[0]?.message ?? "Please check the questions.",
    };
  }
  if (!/^[0-9a-f-]{36}$/i.test(serviceId)) return { ok: false, status: 404, error: "Service not found." };
  return deps.db.transaction(async (tx): Promise<ChangeResult> => {
    const [before] = await tx.select().from(services).where(eq(services.id, serviceId)).for("update");
    if (!before) return { ok: false, status: 404, error: "Service not found." };
    const after = checked.data;
    await tx.update(services).set({ intakeQuestions: after }).where(eq(services.id, serviceId));
    await recordAudit(tx, deps.actor, {
      action: "catalogue.intake",
      entity: "service",
      entityId: serviceId,
      before: { intakeQuestions: intakeQuestionsOf(before) },
      after: { intakeQuestions: after },
    });
    return {
      ok: true,
      message: after.length
        ? `${before.name} asks ${after.length} question${after.length === 1 ? "" : "s"} after payment.`
        : `${before.name} asks no questions after payment.`,
    };
  });
}
