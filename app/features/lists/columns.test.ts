import { describe, expect, it } from "vitest";
import { fromColumns, toColumns } from "./columns";

describe("a list's rows as columns", () => {
  const rows = [
    { id: "a", amount: "$4.00", invoiceId: "i-1" as string | null, waiting: true, quantity: 1 },
    { id: "b", amount: "$4.00", invoiceId: null, waiting: false, quantity: 3 },
    { id: "c", amount: "₹8,325.00", invoiceId: "i-3", waiting: false, quantity: 1 },
  ];

  it("names each field once and keeps the values in the rows' order", () => {
    expect(toColumns(rows)).toEqual({
      id: ["a", "b", "c"],
      amount: ["$4.00", "$4.00", "₹8,325.00"],
      invoiceId: ["i-1", null, "i-3"],
      waiting: [true, false, false],
      quantity: [1, 3, 1],
    });
  });

  it("gives back the same rows, also after the page's data went through text", () => {
    expect(fromColumns(toColumns(rows))).toEqual(rows);
    expect(fromColumns(JSON.parse(JSON.stringify(toColumns(rows))))).toEqual(rows);
  });

  it("has no columns and no rows for an empty list", () => {
    expect(toColumns([])).toEqual({});
    expect(fromColumns(toColumns([]))).toEqual([]);
  });
});
