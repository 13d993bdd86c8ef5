/**
 * The editor of a service's intake questions (what a client is asked after paying): one row of fields
 * per question, then blank rows to add questions, each saved row with a "Remove" box. A plain form, so
 * adding and removing work without JavaScript; a refused save shows the rows as sent, each error on its
 * field.
 */
import { Form } from "react-router";
import {
  ANSWER_LIMITS,
  type IntakeQuestion,
  intakeQuestionKinds,
  KIND_LABELS,
  MAX_HINT_CHARS,
  MAX_INTAKE_QUESTIONS,
  MAX_KEY_CHARS,
  MAX_LABEL_CHARS,
  questionField,
} from "~/features/catalogue/intake-questions";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { cn } from "~/ui/cn";
import { inputClass, TextField } from "~/ui/field";
import type { FieldErrors } from "~/ui/form";
import { type EditorRow, editorRows, removeField } from "./intake-editor";

const DEFAULTS = intakeQuestionKinds
  .map((k) => `${ANSWER_LIMITS[k].default} for ${KIND_LABELS[k].toLowerCase()}`)
  .join(", ");

export function IntakeQuestionsEditor({
  questions,
  errors,
  values,
}: {
  questions: readonly IntakeQuestion[];
  errors: FieldErrors;
  values: Readonly<Record<string, string>> | null;
}) {
  const rows = editorRows(questions, values);
  return (
    <Card title="Questions after payment">
      {/* A save changes the questions, and with them the key: the fields show what was saved. */}
      <Form method="post" noValidate className="space-y-5" key={JSON.stringify(questions)}>
        <input type="hidden" name="intent" value="questions" />
        <div className="space-y-1 text-sm text-slate-600">
          <p>
            A client answers these once the order is paid (at most {MAX_INTAKE_QUESTIONS}). Fill in a blank
            row to add a question; tick "Remove" to drop one. Orders already answered keep the questions they
            were asked.
          </p>
          <p>An empty key is made from the question. An empty longest answer is {DEFAULTS} characters.</p>
        </div>
        {rows.length === 0 && <p className="text-sm text-slate-600">This service asks no questions.</p>}
        {rows.map((row) => (
          <QuestionRow key={row.index} row={row} errors={errors} />
        ))}
        <Button type="submit">Save questions</Button>
      </Form>
    </Card>
  );
}

function QuestionRow({ row, errors }: { row: EditorRow; errors: FieldErrors }) {
  const i = row.index;
  const name = (field: Parameters<typeof questionField>[1]) => questionField(i, field);
  const kindId = `question-${i}-kind`;
  const kindError = errors[name("kind")];
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4" data-question-row={i}>
      <legend className="px-1 text-sm font-semibold text-ink">
        {row.isNew ? "New question" : `Question ${i + 1}`}
      </legend>
      <TextField
        label="Question"
        name={name("label")}
        defaultValue={row.label}
        maxLength={MAX_LABEL_CHARS}
        error={errors[name("label")]}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Key"
          name={name("key")}
          defaultValue={row.key}
          maxLength={MAX_KEY_CHARS}
          error={errors[name("key")]}
        />
        <div>
          <label htmlFor={kindId} className="block text-sm font-medium text-slate-800">
            Answer
          </label>
          <select
            id={kindId}
            name={name("kind")}
            defaultValue={row.kind}
            aria-invalid={kindError ? true : undefined}
            aria-describedby={kindError ? `${kindId}-error` : undefined}
            className={cn(inputClass, "mt-1", kindError ? "border-red-600" : "border-slate-300")}
          >
            {intakeQuestionKinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
          {kindError && (
            <p id={`${kindId}-error`} className="mt-1 text-sm text-red-700">
              {kindError}
            </p>
          )}
        </div>
        <TextField
          label="Longest answer (characters)"
          name={name("maxLength")}
          inputMode="numeric"
          defaultValue={row.maxLength}
          error={errors[name("maxLength")]}
        />
      </div>
      <TextField
        label="Hint for the client (optional)"
        name={name("hint")}
        defaultValue={row.hint}
        maxLength={MAX_HINT_CHARS}
        error={errors[name("hint")]}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" name={name("required")} defaultChecked={row.required} className="size-4" />
          Required
        </label>
        {!row.isNew && (
          <label className="inline-flex items-center gap-2">
            <input type="checkbox" name={removeField(i)} defaultChecked={row.remove} className="size-4" />
            Remove this question
          </label>
        )}
      </div>
    </fieldset>
  );
}
