/**
 * The back office's quote editor as a plain form (issue "quotes", item 2): it works without JavaScript.
 * Each line is a row of fields named `lines.{i}.{field}` (`lineField`): its kind (a catalogue service's
 * package, or a free line), the package (`item`, "serviceId:package"), a description, a quantity and a
 * unit price (free lines only: a catalogue line is always priced by the server from the catalogue, and a
 * price posted with it is ignored). The saved lines are shown with blank rows after them; a blank row
 * is ignored, and a ticked "Remove" drops a line. `parseQuoteForm` turns a post into the shape
 * `saveDraft` checks (features/quotes/quote-drafts.server.ts); the rows to show are `editorValues`. Pure and
 * free of zod, so the editor's page carries none of it.
 */
import type { QuoteLine } from "~/db/schema";
import { formatCount } from "~/ui/format";

export const LINE_KINDS = ["catalogue", "free"] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const LINE_KIND_LABELS: Record<LineKind, string> = {
  catalogue: "Catalogue service",
  free: "Free line",
};

export type LineField = "kind" | "item" | "description" | "quantity" | "unitPrice" | "remove";
export const lineField = (i: number, field: LineField) => `lines.${i}.${field}`;
const LINE_FIELD = /^lines\.(\d{1,4})\.(kind|item|description|quantity|unitPrice|remove)$/;

/** A quote has at most this many lines (QUOTE_LIMITS.lines in quote-drafts.server.ts). */
export const MAX_QUOTE_LINES = 50;
/** Blank rows offered after the lines (while there is room). */
export const BLANK_LINE_ROWS = 2;
export const MAX_QUANTITY = 100_000;
/** A new quote is valid this many days unless the owner says otherwise. */
export const DEFAULT_VALID_DAYS = 30;
/** A free line's description is at most this long (QUOTE_LIMITS.description). */
export const MAX_LINE_DESCRIPTION = 500;

export const DEFAULT_QUOTE_TERMS = [
  "Prices are in US dollars; tax is added at the rate shown.",
  "The quote covers the work described in its lines; anything else is quoted separately.",
  "Accepting the quote issues its invoice (the deposit, if one is asked for), payable within the invoice's terms; any balance is invoiced when the work is complete.",
  "The quote is valid until the date shown.",
].join("\n");

/** The catalogue's packages a line may name: "serviceId:package", shown with the service and price. */
export const catalogueItem = (serviceId: string, pkg: string) => `${serviceId}:${pkg}`;

/** One row of the editor as shown. */
export interface EditorLine {
  kind: LineKind;
  item: string;
  description: string;
  quantity: string;
  unitPrice: string;
}

/** Everything the editor shows: the recipient, the lines, the money terms. */
export interface QuoteFormValues {
  requestId: string;
  clientId: string;
  name: string;
  email: string;
  company: string;
  lines: EditorLine[];
  discount: string;
  depositPercent: string;
  validUntil: string;
  terms: string;
}

const TOP_FIELDS = [
  "requestId",
  "clientId",
  "name",
  "email",
  "company",
  "discount",
  "depositPercent",
  "validUntil",
  "terms",
] as const;

const FIELD_LABELS: Record<(typeof TOP_FIELDS)[number], string> = {
  requestId: "The request",
  clientId: "Client",
  name: "The recipient's name",
  email: "The recipient's email",
  company: "Company",
  discount: "Discount",
  depositPercent: "Deposit",
  validUntil: "Valid until",
  terms: "Terms",
};

export const emptyLine = (): EditorLine => ({
  kind: "catalogue",
  item: "",
  description: "",
  quantity: "1",
  unitPrice: "",
});

/** A row with nothing typed in it (its kind and quantity aside): ignored when saved. */
export function isBlankLine(line: Pick<EditorLine, "item" | "description" | "unitPrice">): boolean {
  return !line.item.trim() && !line.description.trim() && !line.unitPrice.trim();
}

function withBlankRows(lines: EditorLine[]): EditorLine[] {
  const room = Math.max(0, Math.min(BLANK_LINE_ROWS, MAX_QUOTE_LINES - lines.length));
  return [...lines, ...Array.from({ length: room }, emptyLine)];
}

/** The editor's "Add line" without JavaScript: what was posted, and one blank row more (while there is room). */
export function withAnotherRow(values: QuoteFormValues): QuoteFormValues {
  if (values.lines.length >= MAX_QUOTE_LINES) return values;
  return { ...values, lines: [...values.lines, emptyLine()] };
}

/** Posted by the preview's Send: the total it showed, so different figures are never sent unseen. */
export const PREVIEWED_TOTAL = "previewedTotal";

/** The fields of the editor's form, named as the editor names them: the preview posts them again. */
export function formFieldsOf(values: QuoteFormValues): Array<[string, string]> {
  const fields: Array<[string, string]> = TOP_FIELDS.map((f) => [f, values[f]]);
  values.lines.forEach((line, i) => {
    if (isBlankLine(line)) return;
    for (const f of ["kind", "item", "description", "quantity", "unitPrice"] as const)
      fields.push([lineField(i, f), line[f]]);
  });
  return fields;
}

/** The UTC calendar day `days` after `now`. */
export function dayAfter(now: Date, days: number): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A stored amount as the form shows it: "1200.50"; nothing for zero. */
const amountText = (usd: number) => (usd ? usd.toFixed(2) : "");

/** A saved draft's lines as rows (catalogue lines carry no price), with blank rows after them. */
export function savedLines(lines: readonly QuoteLine[]): EditorLine[] {
  return withBlankRows(
    lines.map((l) =>
      l.kind === "catalogue"
        ? {
            kind: "catalogue",
            item: catalogueItem(l.serviceId, l.package),
            description: "",
            quantity: String(l.quantity),
            unitPrice: "",
          }
        : {
            kind: "free",
            item: "",
            description: l.description,
            quantity: String(l.quantity),
            unitPrice: l.unitPriceUsd.toFixed(2),
          },
    ),
  );
}

/** What a saved draft shows in the editor. */
export function draftValues(quote: {
  requestId: string | null;
  clientId: string | null;
  name: string;
  email: string;
  company: string | null;
  lines: readonly QuoteLine[];
  discountUsd: number;
  depositPercent: number | null;
  validUntil: string;
  terms: string;
}): QuoteFormValues {
  return {
    requestId: quote.requestId ?? "",
    clientId: quote.clientId ?? "",
    name: quote.name,
    email: quote.email,
    company: quote.company ?? "",
    lines: savedLines(quote.lines),
    discount: amountText(quote.discountUsd),
    depositPercent: quote.depositPercent ? String(quote.depositPercent) : "",
    validUntil: quote.validUntil,
    terms: quote.terms,
  };
}

/**
 * A new quote: valid for DEFAULT_VALID_DAYS, the default terms; from a request, its requester and a free
 * line with its description (to price).
 */
export function newQuoteValues(
  now: Date,
  request?: {
    id: string;
    clientId: string | null;
    name: string;
    email: string;
    company: string | null;
    description: string;
  } | null,
): QuoteFormValues {
  const description = request?.description.trim() ?? "";
  return {
    requestId: request?.id ?? "",
    clientId: request?.clientId ?? "",
    name: request?.name ?? "",
    email: request?.email ?? "",
    company: request?.company ?? "",
    lines: withBlankRows(
      request
        ? [
            {
              kind: "free",
              item: "",
              description:
                description.length > MAX_LINE_DESCRIPTION
                  ? `${description.slice(0, MAX_LINE_DESCRIPTION - 1)}…`
                  : description,
              quantity: "1",
              unitPrice: "",
            },
          ]
        : [],
    ),
    discount: "",
    depositPercent: "",
    validUntil: dayAfter(now, DEFAULT_VALID_DAYS),
    terms: DEFAULT_QUOTE_TERMS,
  };
}

/** A post's text fields, each once (the first one sent), files ignored. */
export function postedValues(form: Iterable<[string, FormDataEntryValue]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/** The rows of a post, in the order of their indices (`lines.7.…` after `lines.2.…`), as sent. */
function postedRows(values: Readonly<Record<string, string>>): Array<EditorLine & { remove: boolean }> {
  const rows = new Map<number, Record<string, string>>();
  for (const [key, value] of Object.entries(values)) {
    const match = LINE_FIELD.exec(key);
    if (!match) continue;
    const i = Number(match[1]);
    const row = rows.get(i) ?? {};
    row[match[2]!] = value;
    rows.set(i, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, r]) => ({
      kind: (r.kind ?? "") as LineKind,
      item: r.item ?? "",
      description: r.description ?? "",
      quantity: r.quantity ?? "",
      unitPrice: r.unitPrice ?? "",
      remove: "remove" in r,
    }));
}

/** A refused post shown again as it was sent (removed rows gone), so nothing typed is lost. */
export function postedFormValues(
  values: Readonly<Record<string, string>>,
  /** Add blank rows when none was posted (false: the rows exactly as posted, "Add line" adds one). */
  pad = true,
): QuoteFormValues {
  const lines = postedRows(values)
    .filter((r) => !r.remove)
    .slice(0, MAX_QUOTE_LINES)
    .map(({ remove: _remove, ...line }) => ({
      ...line,
      kind: LINE_KINDS.includes(line.kind) ? line.kind : "catalogue",
    }));
  const top = Object.fromEntries(TOP_FIELDS.map((f) => [f, values[f] ?? ""])) as Record<
    (typeof TOP_FIELDS)[number],
    string
  >;
  return { ...top, lines: !pad || lines.some(isBlankLine) ? lines : withBlankRows(lines) };
}

const stripDollar = (text: string) => text.trim().replace(/^\$\s*/, "");
const isZero = (text: string) => /^0*(\.0*)?$/.test(text.replace(/[\s,]/g, ""));

/** A line's quantity: a whole number from 1 to MAX_QUANTITY (empty: 1). */
function quantityOf(text: string): number | null {
  const cleaned = text.trim().replace(/,/g, "");
  if (cleaned === "") return 1;
  if (!/^\d{1,7}$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return n >= 1 && n <= MAX_QUANTITY ? n : null;
}

export type DraftLineInput =
  | { kind: "catalogue"; serviceId: string; package: string; quantity: number }
  | { kind: "free"; description: string; quantity: number; unitPrice: string };

/** What `saveDraft` is given (its own schema checks it again). */
export interface DraftFormInput {
  requestId: string | null;
  clientId: string | null;
  name: string;
  email: string;
  company: string | null;
  lines: DraftLineInput[];
  discount: string;
  depositPercent: number | null;
  validUntil: string;
  terms: string;
}

export type ParsedQuoteForm = { ok: true; input: DraftFormInput } | { ok: false; error: string };

/**
 * A post of the editor as `saveDraft`'s input: blank and removed rows dropped, each line by its kind
 * (a catalogue line's posted price is not read), "$" and thousands separators allowed in amounts, a zero
 * discount as none. What cannot be a line (a kind, a quantity, a deposit that is no number) is refused
 * here with a message naming the line; the rest is `saveDraft`'s to check.
 */
export function parseQuoteForm(values: Readonly<Record<string, string>>): ParsedQuoteForm {
  // PostgreSQL stores no NUL character in text: a field holding one is refused here, not by the insert.
  for (const field of TOP_FIELDS) {
    if (values[field]?.includes("\u0000"))
      return { ok: false, error: `${FIELD_LABELS[field]} contains a character that is not allowed.` };
  }
  const lines: DraftLineInput[] = [];
  let n = 0;
  for (const row of postedRows(values)) {
    if (row.remove || isBlankLine(row)) continue;
    n++;
    if ([row.kind, row.item, row.description, row.quantity, row.unitPrice].some((v) => v.includes("\u0000")))
      return { ok: false, error: `Line ${n} contains a character that is not allowed.` };
    if (!LINE_KINDS.includes(row.kind))
      return { ok: false, error: `Line ${n}: choose a catalogue service or a free line.` };
    const quantity = quantityOf(row.quantity);
    if (quantity === null)
      return {
        ok: false,
        error: `Line ${n}: the quantity is a whole number from 1 to ${formatCount(MAX_QUANTITY)}.`,
      };
    if (row.kind === "catalogue") {
      const at = row.item.indexOf(":");
      lines.push({
        kind: "catalogue",
        serviceId: at < 0 ? row.item.trim() : row.item.slice(0, at),
        package: at < 0 ? "" : row.item.slice(at + 1),
        quantity,
      });
    } else {
      lines.push({
        kind: "free",
        description: row.description,
        quantity,
        unitPrice: stripDollar(row.unitPrice),
      });
    }
  }
  const validUntil = (values.validUntil ?? "").trim();
  // A date the database can store (it has no year 0); saveDraft checks it is a real date.
  if (/^\d{4}-/.test(validUntil) && (validUntil < "2000" || validUntil > "9999-12-31"))
    return { ok: false, error: "Enter the date the quote is valid until." };
  const deposit = (values.depositPercent ?? "").trim().replace(/\s*%$/, "");
  if (deposit !== "" && !/^\d{1,3}$/.test(deposit))
    return { ok: false, error: "A deposit is between 1 and 99 percent." };
  const discount = stripDollar(values.discount ?? "");
  const company = (values.company ?? "").trim();
  return {
    ok: true,
    input: {
      requestId: (values.requestId ?? "").trim() || null,
      clientId: (values.clientId ?? "").trim() || null,
      name: values.name ?? "",
      email: (values.email ?? "").trim(),
      company: company || null,
      lines,
      discount: discount === "" || isZero(discount) ? "0" : discount,
      depositPercent: deposit === "" ? null : Number(deposit),
      validUntil,
      terms: values.terms ?? "",
    },
  };
}
