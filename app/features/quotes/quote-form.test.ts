import { describe, expect, it } from "vitest";
import type { QuoteLine } from "~/db/schema";
import { draftInput, QUOTE_LIMITS } from "./quote-drafts.server";
import {
  BLANK_LINE_ROWS,
  DEFAULT_QUOTE_TERMS,
  draftValues,
  lineField,
  MAX_QUOTE_LINES,
  newQuoteValues,
  parseQuoteForm,
  postedFormValues,
  postedValues,
} from "./quote-form";

const SERVICE = "5b0e2f8e-8f3a-4c1e-9d2b-3f4a5b6c7d8e";

const top = {
  requestId: "",
  clientId: "",
  name: "Grace Hopper",
  email: " grace@example.com ",
  company: "",
  discount: "",
  depositPercent: "",
  validUntil: "2027-01-31",
  terms: "Pay within 7 days.",
};

function form(rows: Array<Record<string, string>>, extra: Record<string, string> = {}) {
  const values: Record<string, string> = { ...top, ...extra };
  rows.forEach((row, i) => {
    for (const [k, v] of Object.entries(row)) values[`lines.${i}.${k}`] = v;
  });
  return values;
}

describe("parseQuoteForm", () => {
  it("reads indexed rows into saveDraft's lines, by kind, skipping blank and removed rows", () => {
    const parsed = parseQuoteForm(
      form(
        [
          // A catalogue line: the price posted with it is not read.
          { kind: "catalogue", item: `${SERVICE}:premium`, quantity: "2", unitPrice: "0.01" },
          // A blank row (its kind and quantity aside).
          { kind: "catalogue", item: "", description: "", quantity: "1", unitPrice: "" },
          { kind: "free", item: "", description: "On-site day", quantity: "", unitPrice: "$1,200.50" },
          { kind: "free", description: "Dropped", quantity: "1", unitPrice: "5", remove: "on" },
        ],
        { discount: "$100", depositPercent: "30 %", company: "  Hopper Ltd " },
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      input: {
        requestId: null,
        clientId: null,
        name: "Grace Hopper",
        email: "grace@example.com",
        company: "Hopper Ltd",
        lines: [
          { kind: "catalogue", serviceId: SERVICE, package: "premium", quantity: 2 },
          { kind: "free", description: "On-site day", quantity: 1, unitPrice: "1,200.50" },
        ],
        discount: "100",
        depositPercent: 30,
        validUntil: "2027-01-31",
        terms: "Pay within 7 days.",
      },
    });
    // saveDraft's own schema takes it as it is.
    expect(draftInput.safeParse(parsed.ok && parsed.input).success).toBe(true);
  });

  it("orders rows by their index, not by the order of the fields", () => {
    const parsed = parseQuoteForm({
      ...top,
      [lineField(10, "kind")]: "free",
      [lineField(10, "description")]: "Tenth",
      [lineField(10, "unitPrice")]: "10",
      [lineField(2, "kind")]: "free",
      [lineField(2, "description")]: "Second",
      [lineField(2, "unitPrice")]: "2",
    });
    expect(parsed.ok && parsed.input.lines.map((l) => (l.kind === "free" ? l.description : ""))).toEqual([
      "Second",
      "Tenth",
    ]);
  });

  it("takes no discount, no deposit, no request and no client when they are left empty or zero", () => {
    for (const discount of ["", "0", "0.00", "$0", " 0,000.0 "]) {
      const parsed = parseQuoteForm(form([{ kind: "free", description: "X", unitPrice: "1" }], { discount }));
      expect(parsed.ok && parsed.input.discount, discount).toBe("0");
    }
    const parsed = parseQuoteForm(form([{ kind: "free", description: "X", unitPrice: "1" }]));
    expect(parsed.ok && parsed.input).toMatchObject({
      requestId: null,
      clientId: null,
      company: null,
      depositPercent: null,
    });
  });

  it("refuses what cannot be a line, naming the line (blank rows not counted)", () => {
    const blank = { kind: "catalogue", item: "", description: "", unitPrice: "" };
    const ok = { kind: "free", description: "Fine", unitPrice: "1" };
    expect(parseQuoteForm(form([blank, ok, { kind: "rocket", description: "?" }]))).toEqual({
      ok: false,
      error: "Line 2: choose a catalogue service or a free line.",
    });
    for (const quantity of ["0", "-1", "1.5", "two", "100001"]) {
      expect(parseQuoteForm(form([{ ...ok, quantity }])), quantity).toEqual({
        ok: false,
        error: "Line 1: the quantity is a whole number from 1 to 100,000.",
      });
    }
    expect(parseQuoteForm(form([{ ...ok, quantity: "100,000" }])).ok).toBe(true);
    for (const depositPercent of ["half", "12.5", "-5"]) {
      expect(parseQuoteForm(form([ok], { depositPercent })), depositPercent).toEqual({
        ok: false,
        error: "A deposit is between 1 and 99 percent.",
      });
    }
  });

  it("refuses a NUL character (the database stores none) and a date without a year it can store", () => {
    const ok = { kind: "free", description: "Fine", unitPrice: "1" };
    expect(parseQuoteForm(form([ok], { name: "Gr\u0000ace" }))).toEqual({
      ok: false,
      error: "The recipient's name contains a character that is not allowed.",
    });
    expect(parseQuoteForm(form([ok, { ...ok, description: "nul\u0000inside" }]))).toEqual({
      ok: false,
      error: "Line 2 contains a character that is not allowed.",
    });
    for (const validUntil of ["0000-01-01", "1999-12-31"]) {
      expect(parseQuoteForm(form([ok], { validUntil })), validUntil).toEqual({
        ok: false,
        error: "Enter the date the quote is valid until.",
      });
    }
    expect(parseQuoteForm(form([ok], { validUntil: "9999-12-31" })).ok).toBe(true);
  });

  it("leaves the rest to saveDraft's schema, whose messages the owner sees", () => {
    const check = (values: Record<string, string>) => {
      const parsed = parseQuoteForm(values);
      if (!parsed.ok) return parsed.error;
      const result = draftInput.safeParse(parsed.input);
      return result.success ? "ok" : result.error.issues[0]?.message;
    };
    expect(check(form([]))).toBe("Add at least one line.");
    expect(
      check(
        form([
          { kind: "catalogue", item: "", quantity: "3" },
          { kind: "free", unitPrice: "5" },
        ]),
      ),
    ).toBe("Describe each free line.");
    expect(check(form([{ kind: "catalogue", item: "", description: "typed under a catalogue line" }]))).toBe(
      "Choose a service for each catalogue line.",
    );
    expect(check(form([{ kind: "free", description: "Unpriced" }]))).toBe("Price each free line.");
    expect(check(form([{ kind: "free", description: "X", unitPrice: "1" }], { depositPercent: "0" }))).toBe(
      "A deposit is between 1 and 99 percent.",
    );
    expect(check(form([{ kind: "free", description: "X", unitPrice: "1" }], { validUntil: "" }))).toBe(
      "Enter the date the quote is valid until.",
    );
    expect(check(form([{ kind: "free", description: "X", unitPrice: "1" }], { email: "nope" }))).toBe(
      "Enter the recipient's email address.",
    );
  });

  it("shares the server's limits", () => {
    expect(MAX_QUOTE_LINES).toBe(QUOTE_LIMITS.lines);
  });
});

describe("the editor's rows", () => {
  const lines: QuoteLine[] = [
    {
      kind: "catalogue",
      serviceId: SERVICE,
      serviceName: "Email Migration",
      package: "basic",
      packageName: "Basic",
      quantity: 3,
      unitPriceUsd: 499,
    },
    { kind: "free", description: "Travel", quantity: 1, unitPriceUsd: 80.5 },
  ];

  it("shows a saved draft's lines (a catalogue line without a price field value), then blank rows", () => {
    const values = draftValues({
      requestId: null,
      clientId: "c1",
      name: "Grace",
      email: "grace@example.com",
      company: null,
      lines,
      discountUsd: 0,
      depositPercent: 40,
      validUntil: "2027-01-31",
      terms: "Terms",
    });
    expect(values.lines).toEqual([
      { kind: "catalogue", item: `${SERVICE}:basic`, description: "", quantity: "3", unitPrice: "" },
      { kind: "free", item: "", description: "Travel", quantity: "1", unitPrice: "80.50" },
      ...Array.from({ length: BLANK_LINE_ROWS }, () => ({
        kind: "catalogue",
        item: "",
        description: "",
        quantity: "1",
        unitPrice: "",
      })),
    ]);
    expect(values).toMatchObject({ clientId: "c1", company: "", discount: "", depositPercent: "40" });
  });

  it("starts a new quote valid for 30 days with the default terms; from a request, with its line", () => {
    const now = new Date("2026-12-20T23:30:00Z");
    const blank = newQuoteValues(now);
    expect(blank).toMatchObject({ validUntil: "2027-01-19", terms: DEFAULT_QUOTE_TERMS, requestId: "" });
    expect(blank.lines).toHaveLength(BLANK_LINE_ROWS);
    const long = "x".repeat(800);
    const fromRequest = newQuoteValues(now, {
      id: "r1",
      clientId: null,
      name: "Ada",
      email: "ada@example.com",
      company: "Engines",
      description: long,
    });
    expect(fromRequest).toMatchObject({
      requestId: "r1",
      name: "Ada",
      email: "ada@example.com",
      company: "Engines",
    });
    expect(fromRequest.lines[0]).toMatchObject({ kind: "free", quantity: "1", unitPrice: "" });
    expect(fromRequest.lines[0]!.description).toHaveLength(500);
    expect(fromRequest.lines).toHaveLength(1 + BLANK_LINE_ROWS);
  });

  it("shows a refused post again as sent, removed rows gone, with blank rows kept", () => {
    const posted = new URLSearchParams({
      ...form([
        { kind: "free", description: "Kept", quantity: "2", unitPrice: "oops" },
        { kind: "free", description: "Gone", quantity: "1", unitPrice: "1", remove: "on" },
        { kind: "catalogue", item: "", description: "", quantity: "1", unitPrice: "" },
      ]),
      name: "Typed name",
    });
    posted.append("name", "a second value is ignored");
    const shown = postedFormValues(postedValues(posted));
    expect(shown.name).toBe("Typed name");
    expect(shown.lines).toEqual([
      { kind: "free", item: "", description: "Kept", quantity: "2", unitPrice: "oops" },
      { kind: "catalogue", item: "", description: "", quantity: "1", unitPrice: "" },
    ]);
    // Without a blank row among them, blank rows are added to type into.
    const full = postedFormValues(form([{ kind: "free", description: "Only", unitPrice: "1" }]));
    expect(full.lines).toHaveLength(1 + BLANK_LINE_ROWS);
  });
});
