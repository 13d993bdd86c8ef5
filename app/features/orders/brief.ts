/**
 * An order's brief (ADR 0512): the client's answers to the service's intake questions, asked right after
 * payment. Pure: the answers' schema built from the questions (the page checks with it, the server
 * enforces it), and the rule that says when a brief is missing, in the portal's and the back office's
 * words.
 *
 * A brief may be answered while the order is paid or in progress; answering again replaces the answers
 * (a correction). Before payment nothing is asked; once the order is completed or cancelled the brief is
 * no longer needed.
 */
import { z } from "zod";
import type { BriefAnswers, IntakeQuestion, OrderStatus } from "~/db/schema";
import { hasNoNul } from "~/features/security/text";
import { WORK_OWED_ORDER_STATUSES } from "./order-status";

export { BRIEF_MISSING, WAITING_FOR_DETAILS } from "./brief-badges";
export type { BriefAnswers };

export const BRIEF_MESSAGES = {
  required: (label: string) => `Please answer "${label}".`,
  tooLong: (label: string, max: number) => `The answer to "${label}" must be at most ${max} characters.`,
  notANumber: (label: string) => `The answer to "${label}" must be a whole number.`,
  badCharacter: (label: string) => `The answer to "${label}" contains a character that is not allowed.`,
  notYet: "The details can be sent once the order is paid.",
  closed: "This order is finished: its details can no longer be changed.",
  noQuestions: "This service needs no details.",
  saved: "Thank you: your details are with us.",
} as const;

/** A client may answer (or correct) the brief while work is owed on the order (paid or in progress). */
export function canAnswerBrief(status: OrderStatus): boolean {
  return (WORK_OWED_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
}

/**
 * - `answered`: the client sent their details.
 * - `missing`: paid or in progress, questions to answer, no answers yet ("Waiting for your details" /
 *   "Brief missing").
 * - `not-yet`: not paid yet (asked after payment).
 * - `not-needed`: the service asks nothing, or the order is over without one.
 */
export type BriefState = "answered" | "missing" | "not-yet" | "not-needed";

export function briefState(input: {
  status: OrderStatus;
  questionCount: number;
  answered: boolean;
}): BriefState {
  if (input.answered) return "answered";
  if (input.questionCount === 0) return "not-needed";
  if (input.status === "pending") return "not-yet";
  return canAnswerBrief(input.status) ? "missing" : "not-needed";
}

/** One question's answer: trimmed text, bounded; a number question takes a whole number. */
function answerSchema(q: IntakeQuestion): z.ZodType<string, unknown> {
  const base = z
    .string()
    .trim()
    .max(q.maxLength, { message: BRIEF_MESSAGES.tooLong(q.label, q.maxLength) })
    .refine(hasNoNul, { message: BRIEF_MESSAGES.badCharacter(q.label) })
    .refine((v) => q.kind !== "number" || v === "" || /^\d+$/.test(v), {
      message: BRIEF_MESSAGES.notANumber(q.label),
    });
  // A missing field is an empty answer, so "required" says the one message for both.
  const value = z.preprocess((v) => (v === undefined || v === null ? "" : v), base);
  return q.required ? value.pipe(z.string().min(1, { message: BRIEF_MESSAGES.required(q.label) })) : value;
}

/**
 * The schema of a brief's answers, keyed by question key (the form's fields are named by key). Unknown
 * keys are dropped; an optional question left empty is not kept. `parseForm(briefSchema(questions),
 * formValues(form))` gives the answers or the form's failure.
 */
export function briefSchema(questions: readonly IntakeQuestion[]) {
  const shape: Record<string, z.ZodType<string, unknown>> = {};
  for (const q of questions) shape[q.key] = answerSchema(q);
  return z.object(shape).transform((answers): BriefAnswers => {
    const kept: BriefAnswers = {};
    for (const q of questions) {
      const value = answers[q.key];
      if (typeof value !== "string" || value === "") continue;
      // A whole number is kept as written without leading zeros ("007" → "7").
      kept[q.key] = q.kind === "number" ? value.replace(/^0+(?=\d)/, "") : value;
    }
    return kept;
  });
}

/** The brief as a page or an email shows it: each question asked, with its answer ("" when none). */
export function briefLines(
  questions: readonly IntakeQuestion[],
  answers: BriefAnswers,
): Array<{ key: string; label: string; answer: string }> {
  return questions.map((q) => ({ key: q.key, label: q.label, answer: answers[q.key] ?? "" }));
}
