import { describe, expect, it } from "vitest";
import type { IntakeQuestion } from "~/features/catalogue/intake-questions";
import { parseIntakeQuestionsForm } from "~/features/catalogue/intake-questions";
import { editorRows, questionValues, removeField, withoutRemovedRows } from "./intake-editor";

const q = (key: string, extra: Partial<IntakeQuestion> = {}): IntakeQuestion => ({
  key,
  label: `About ${key}`,
  kind: "text",
  required: false,
  maxLength: 200,
  ...extra,
});

describe("the intake questions' editor rows", () => {
  it("shows the saved questions, then two blank rows while there is room", () => {
    const rows = editorRows([q("domain", { required: true, hint: "example.com" }), q("users")]);
    expect(rows.map((r) => [r.index, r.isNew, r.key])).toEqual([
      [0, false, "domain"],
      [1, false, "users"],
      [2, true, ""],
      [3, true, ""],
    ]);
    expect(rows[0]).toMatchObject({ required: true, hint: "example.com", maxLength: "200", kind: "text" });
    expect(editorRows([])).toHaveLength(2);
    // At the limit of twelve there is no blank row; at eleven, one.
    const many = Array.from({ length: 12 }, (_, i) => q(`k${i}`));
    expect(editorRows(many).filter((r) => r.isNew)).toHaveLength(0);
    expect(editorRows(many.slice(0, 11)).filter((r) => r.isNew)).toHaveLength(1);
  });

  it("shows a refused form's rows as they were sent", () => {
    const sent = {
      "question.0.label": "Domain",
      "question.0.key": "domain",
      "question.0.kind": "textarea",
      "question.0.required": "on",
      "question.0.maxLength": "lots",
      "question.0.hint": "",
      "question.1.label": "Users",
      "question.1.key": "users",
      [removeField(1)]: "on",
      "question.2.label": "New one",
      "question.2.key": "",
    };
    const rows = editorRows([q("domain"), q("users")], sent);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ kind: "textarea", required: true, maxLength: "lots", remove: false });
    expect(rows[1]).toMatchObject({ isNew: false, remove: true, required: false });
    expect(rows[2]).toMatchObject({ isNew: true, label: "New one" });
  });
});

describe("removing and reading rows", () => {
  it("drops the rows ticked 'Remove' and keeps the others' row numbers for their errors", () => {
    const form = new FormData();
    form.set("intent", "questions");
    form.set("question.0.label", "Domain");
    form.set("question.0.key", "domain");
    form.set("question.1.label", "Users");
    form.set("question.1.key", "users");
    form.set(removeField(1), "on");
    form.set("question.2.label", "Bad");
    form.set("question.2.key", "Bad Key");
    form.set("question.3.label", "");
    form.set("question.3.key", "");
    const kept = withoutRemovedRows(form);
    expect(kept.has("question.1.label")).toBe(false);
    expect(kept.get("intent")).toBe("questions");
    const parsed = parseIntakeQuestionsForm(kept);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.fieldErrors)).toEqual(["question.2.key"]);

    form.delete("question.2.label");
    form.delete("question.2.key");
    const saved = parseIntakeQuestionsForm(withoutRemovedRows(form));
    expect(saved).toMatchObject({ ok: true, value: [{ key: "domain", label: "Domain" }] });
  });

  it("keeps only the question fields to show again", () => {
    const form = new FormData();
    form.set("intent", "questions");
    form.set("question.0.label", "Domain");
    form.set("question.0.required", "on");
    form.set("name", "not a question");
    expect(questionValues(form)).toEqual({ "question.0.label": "Domain", "question.0.required": "on" });
  });
});
