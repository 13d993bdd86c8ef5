import { describe, expect, it } from "vitest";
import type { IntakeQuestion } from "~/db/schema";
import { parseForm } from "~/ui/form";
import { briefLines, briefSchema, briefState, canAnswerBrief } from "./brief";

const questions: IntakeQuestion[] = [
  { key: "problem", label: "What is broken", kind: "textarea", required: true, maxLength: 50 },
  { key: "mailboxes", label: "Number of mailboxes", kind: "number", required: true, maxLength: 6 },
  { key: "notes", label: "Anything else", kind: "text", required: false, maxLength: 10 },
];

describe("briefSchema", () => {
  it("keeps trimmed answers by key, drops unknown keys and empty optional answers", () => {
    expect(
      briefSchema(questions).parse({
        problem: "  Mail bounces \n",
        mailboxes: "012",
        notes: " ",
        extra: "x",
      }),
    ).toEqual({ problem: "Mail bounces", mailboxes: "12" });
  });

  it("says which answer is missing, too long or not a number, per field", () => {
    expect(parseForm(briefSchema(questions), { mailboxes: "3" })).toEqual({
      ok: false,
      status: 400,
      inFields: true,
      error: 'Please answer "What is broken".',
      fieldErrors: { problem: 'Please answer "What is broken".' },
    });
    const failure = parseForm(briefSchema(questions), {
      problem: "x".repeat(51),
      mailboxes: "three",
      notes: "y".repeat(11),
    });
    expect(failure).toMatchObject({
      ok: false,
      fieldErrors: {
        problem: 'The answer to "What is broken" must be at most 50 characters.',
        mailboxes: 'The answer to "Number of mailboxes" must be a whole number.',
        notes: 'The answer to "Anything else" must be at most 10 characters.',
      },
    });
    expect(parseForm(briefSchema(questions), { problem: "a\u0000b", mailboxes: "1" })).toMatchObject({
      fieldErrors: { problem: 'The answer to "What is broken" contains a character that is not allowed.' },
    });
    expect(parseForm(briefSchema(questions), { problem: "ok", mailboxes: "-1" })).toMatchObject({
      ok: false,
    });
  });
});

describe("the brief missing rule", () => {
  it("is missing once paid and until answered, if the service asks anything", () => {
    const state = (status: Parameters<typeof briefState>[0]["status"], questionCount = 3, answered = false) =>
      briefState({ status, questionCount, answered });
    expect(state("pending")).toBe("not-yet");
    expect(state("paid")).toBe("missing");
    expect(state("in_progress")).toBe("missing");
    expect(state("completed")).toBe("not-needed");
    expect(state("cancelled")).toBe("not-needed");
    expect(state("paid", 0)).toBe("not-needed");
    expect(state("paid", 3, true)).toBe("answered");
    expect(state("completed", 3, true)).toBe("answered");
    expect(
      ["pending", "paid", "in_progress", "completed", "cancelled"].filter((s) => canAnswerBrief(s as "paid")),
    ).toEqual(["paid", "in_progress"]);
  });

  it("lists each question with its answer", () => {
    expect(briefLines(questions, { problem: "Bounces" })).toEqual([
      { key: "problem", label: "What is broken", answer: "Bounces" },
      { key: "mailboxes", label: "Number of mailboxes", answer: "" },
      { key: "notes", label: "Anything else", answer: "" },
    ]);
  });
});
