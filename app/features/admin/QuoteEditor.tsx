/**
 * The owner's quote editor (issue "quotes", item 2): a plain form, so it works without JavaScript. The
 * recipient (a client, or a name and address), the lines (each a catalogue package or a free line; blank
 * rows and "Add line" to add lines, "Remove" to drop one), the money terms, and Save draft / Preview and
 * send (the preview, QuotePreviewStep, sends). "Add line" adds a row in the browser with JavaScript, and
 * without it posts the form back with one row more, nothing saved (issue 37, item 9). With JavaScript, a
 * line shows only the fields of its kind; without, all of them (the server reads those of the kind
 * chosen).
 */
import { type ReactNode, type Ref, useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import {
  type EditorLine,
  emptyLine,
  isBlankLine,
  LINE_KIND_LABELS,
  LINE_KINDS,
  type LineKind,
  lineField,
  MAX_LINE_DESCRIPTION,
  MAX_QUOTE_LINES,
  type QuoteFormValues,
} from "~/features/quotes/quote-form";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { cn } from "~/ui/cn";
import { inputClass, TextAreaField, TextField } from "~/ui/field";
import { useHydrated } from "~/ui/use-hydrated";

export interface EditorChoices {
  catalogue: Array<{ value: string; label: string }>;
  clients: Array<{ id: string; label: string }>;
}

const selectClass = cn(inputClass, "mt-1 border-slate-300");

function Select({
  label,
  name,
  defaultValue,
  hint,
  onChange,
  selectRef,
  children,
}: {
  label: string;
  name: string;
  defaultValue: string;
  hint?: string;
  onChange?: (value: string) => void;
  selectRef?: Ref<HTMLSelectElement>;
  children: ReactNode;
}) {
  const id = `field-${name.replace(/\W/g, "-")}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        ref={selectRef}
        name={name}
        defaultValue={defaultValue}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
        className={selectClass}
      >
        {children}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

export function QuoteEditor({
  values,
  choices,
  canSend = true,
}: {
  values: QuoteFormValues;
  choices: EditorChoices;
  canSend?: boolean;
}) {
  return (
    <Form method="post" noValidate className="space-y-6" key={JSON.stringify(values)}>
      <input type="hidden" name="requestId" value={values.requestId} />
      <Card title="Recipient">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Select
              label="Client (optional)"
              name="clientId"
              defaultValue={values.clientId}
              hint="Leave the name and email empty to send it to the client's own. Without a client, the recipient is invited to register."
            >
              <option value="">No client account: the recipient below</option>
              {choices.clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </Select>
          </div>
          <TextField label="Recipient's name" name="name" defaultValue={values.name} maxLength={100} />
          <TextField
            label="Recipient's email"
            name="email"
            type="email"
            defaultValue={values.email}
            maxLength={254}
          />
          <TextField
            label="Company (optional)"
            name="company"
            defaultValue={values.company}
            maxLength={200}
            className="sm:col-span-2"
          />
        </div>
      </Card>

      <EditorLines lines={values.lines} catalogue={choices.catalogue} />

      <Card title="Terms">
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Discount in USD (optional)"
            name="discount"
            inputMode="decimal"
            defaultValue={values.discount}
            hint="Taken off the lines before tax."
          />
          <TextField
            label="Deposit in percent (optional)"
            name="depositPercent"
            inputMode="numeric"
            defaultValue={values.depositPercent}
            hint="Invoiced on acceptance; the balance when the work is complete."
          />
          <TextField label="Valid until" name="validUntil" type="date" defaultValue={values.validUntil} />
        </div>
        <TextAreaField
          label="Terms the client accepts"
          name="terms"
          rows={6}
          defaultValue={values.terms}
          maxLength={10_000}
          className="mt-4"
        />
      </Card>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value="save" variant="secondary">
          Save draft
        </Button>
        {canSend && (
          <Button type="submit" name="intent" value="preview">
            Preview and send
          </Button>
        )}
      </div>
    </Form>
  );
}

/**
 * The lines, and "Add line": with JavaScript a blank row appears at once (its Kind focused); without, the
 * button posts the form, which comes back as typed with a row more.
 */
function EditorLines({ lines, catalogue }: { lines: EditorLine[]; catalogue: EditorChoices["catalogue"] }) {
  const [added, setAdded] = useState(0);
  const rows = [...lines, ...Array.from({ length: added }, emptyLine)];
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (added > 0)
      list.current
        ?.querySelector<HTMLSelectElement>(`[data-quote-line="${rows.length - 1}"] select`)
        ?.focus();
  }, [added, rows.length]);
  const full = rows.length >= MAX_QUOTE_LINES;
  return (
    <Card title="Lines">
      <p className="mb-4 text-sm text-slate-600">
        A catalogue line is priced from the catalogue when the quote is saved; a free line at the price you
        enter. Fill in a blank line, or press Add line for another (up to {MAX_QUOTE_LINES}, no need to save
        first); tick "Remove" to drop one.
      </p>
      <div className="space-y-4" ref={list}>
        {rows.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions of the form.
          <LineRow key={i} index={i} line={line} catalogue={catalogue} />
        ))}
      </div>
      {!full && (
        <Button
          type="submit"
          name="intent"
          value="add-line"
          variant="secondary"
          className="mt-4"
          onClick={(e) => {
            e.preventDefault();
            setAdded((n) => n + 1);
          }}
        >
          Add line
        </Button>
      )}
    </Card>
  );
}

function LineRow({
  index,
  line,
  catalogue,
}: {
  index: number;
  line: EditorLine;
  catalogue: EditorChoices["catalogue"];
}) {
  const hydrated = useHydrated();
  const [kind, setKind] = useState<LineKind>(line.kind);
  const kindSelect = useRef<HTMLSelectElement>(null);
  // A kind chosen before the scripts ran is the one the select shows.
  useEffect(() => {
    if (kindSelect.current?.value === "free") setKind("free");
  }, []);
  const name = (field: Parameters<typeof lineField>[1]) => lineField(index, field);
  // Before the scripts run every field shows; after, those of the line's kind.
  const shows = (k: LineKind) => !hydrated || kind === k;
  const known = catalogue.some((o) => o.value === line.item);
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4" data-quote-line={index}>
      <legend className="px-1 text-sm font-semibold text-ink">Line {index + 1}</legend>
      <div className="grid gap-3 sm:grid-cols-[12rem_1fr_8rem]">
        <Select
          label="Kind"
          name={name("kind")}
          defaultValue={line.kind}
          selectRef={kindSelect}
          onChange={(v) => setKind(v === "free" ? "free" : "catalogue")}
        >
          {LINE_KINDS.map((k) => (
            <option key={k} value={k}>
              {LINE_KIND_LABELS[k]}
            </option>
          ))}
        </Select>
        <div hidden={!shows("catalogue")}>
          <Select label="Service and package" name={name("item")} defaultValue={line.item}>
            <option value="">Choose a package</option>
            {!known && line.item && <option value={line.item}>A package no longer in the catalogue</option>}
            {catalogue.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </div>
        <TextField
          label="Quantity"
          name={name("quantity")}
          inputMode="numeric"
          defaultValue={line.quantity}
          className="sm:col-start-3"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem]" hidden={!shows("free")}>
        <TextAreaField
          label="Description"
          name={name("description")}
          rows={2}
          maxLength={MAX_LINE_DESCRIPTION}
          defaultValue={line.description}
        />
        <TextField
          label="Unit price in USD"
          name={name("unitPrice")}
          inputMode="decimal"
          defaultValue={line.unitPrice}
        />
      </div>
      {!isBlankLine(line) && (
        <label className="inline-flex items-center gap-2 text-sm">
          <input type="checkbox" name={name("remove")} className="size-4" />
          Remove this line
        </label>
      )}
    </fieldset>
  );
}
