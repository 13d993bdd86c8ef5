import { describe, expect, it } from "vitest";
import {
  intakeQuestionsSchema,
  keyFromLabel,
  parseIntakeQuestionsForm,
  questionField,
} from "./intake-questions";
import { SEED_SERVICES } from "./seed-data";

const form = (rows: Array<Record<string, string>>) => {
  const f = new URLSearchParams();
  rows.forEach((row, i) => {
    for (const [field, value] of Object.entries(row)) f.set(`question.${i}.${field}`, value);
  });
  return f;
};

describe("intake questions", () => {
  it("every seeded service asks a few valid questions", () => {
    for (const s of SEED_SERVICES) {
      const parsed = intakeQuestionsSchema.safeParse(s.intakeQuestions);
      expect(parsed.success, `${s.slug}: ${parsed.error?.message}`).toBe(true);
      expect(s.intakeQuestions!.length).toBeGreaterThanOrEqual(3);
      expect(s.intakeQuestions!.some((q) => q.required)).toBe(true);
    }
    const keys = (slug: string) =>
      SEED_SERVICES.find((s) => s.slug === slug)!.intakeQuestions!.map((q) => q.key);
    expect(keys("email-migration")).toEqual(
      expect.arrayContaining(["current_provider", "new_provider", "domains", "mailboxes", "cutover_window"]),
    );
    expect(keys("ssl-setup")).toEqual(expect.arrayContaining(["domains", "control_panel", "dns_manager"]));
    expect(keys("per-incident-support")).toEqual(expect.arrayContaining(["problem", "since", "urgency"]));
  });

  it("makes keys from labels", () => {
    expect(keyFromLabel("Number of mailboxes?")).toBe("number_of_mailboxes");
    expect(keyFromLabel("Domaine (été)")).toBe("domaine_ete");
    expect(keyFromLabel("2FA method")).toBe("q_2fa_method");
    expect(keyFromLabel("???")).toBe("question");
  });
});

describe("parseIntakeQuestionsForm", () => {
  it("reads the rows in order, skipping empty ones, with defaults for key and longest answer", () => {
    const f = form([
      { label: "Domain name(s)", kind: "textarea", required: "on", hint: " One per line " },
      { label: "", key: "" },
      { label: "How many users", kind: "number", maxLength: "4", key: "users" },
    ]);
    expect(parseIntakeQuestionsForm(f)).toEqual({
      ok: true,
      value: [
        {
          key: "domain_name_s",
          label: "Domain name(s)",
          kind: "textarea",
          required: true,
          maxLength: 2000,
          hint: "One per line",
        },
        { key: "users", label: "How many users", kind: "number", required: false, maxLength: 4 },
      ],
    });
    expect(parseIntakeQuestionsForm(new URLSearchParams())).toEqual({ ok: true, value: [] });
  });

  it("names the row's field in each error", () => {
    const result = parseIntakeQuestionsForm(
      form([
        { label: "First", key: "first" },
        { label: "Second" },
        { label: "Third", kind: "colour" },
        { label: "Fourth", maxLength: "lots" },
        { label: "Fifth", kind: "text", maxLength: "501" },
        { label: "", key: "Bad Key" },
      ]),
    );
    expect(result).toMatchObject({
      ok: false,
      error: "Choose short text, long text or a whole number",
      fieldErrors: {
        [questionField(2, "kind")]: "Choose short text, long text or a whole number",
        [questionField(3, "maxLength")]: "Enter a whole number of characters",
        [questionField(4, "maxLength")]:
          "The longest answer must be between 1 and 500 characters for short text",
        [questionField(5, "key")]:
          "A key uses lower-case letters, digits and underscores, and starts with a letter",
        [questionField(5, "label")]: "Enter the question",
      },
    });
  });

  it("refuses two questions with one key (once every row is right)", () => {
    expect(parseIntakeQuestionsForm(form([{ label: "First", key: "same" }, { label: "Same" }]))).toEqual({
      ok: false,
      status: 400,
      inFields: true,
      error: 'Two questions have the key "same"',
      fieldErrors: { [questionField(1, "key")]: 'Two questions have the key "same"' },
    });
  });

  it("refuses more than twelve questions and reserved keys", () => {
    const many = form(Array.from({ length: 13 }, (_, i) => ({ label: `Question ${i}` })));
    expect(parseIntakeQuestionsForm(many)).toMatchObject({ ok: false, error: "Ask at most 12 questions" });
    expect(parseIntakeQuestionsForm(form([{ label: "x", key: "intent" }]))).toMatchObject({
      ok: false,
      error: "This key is reserved: choose another",
    });
  });
});
