import type { ComponentProps, CSSProperties, ReactNode } from "react";

/** The most columns a DataTable labels on a phone (app.css has one `nth-child` rule per column). */
export const MAX_LABELLED_COLUMNS = 12;

/** A CSS string holding `text` (for `content: var(--col-n)`). */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, "\\$&").replace(/[\n\r\f]/g, " ")}"`;
}

/**
 * The column headers as custom properties of the table (`--col-1: "Service"`…): on a phone each cell
 * writes its column's header before its value (app.css), whatever component renders the row or the
 * cell, and the server's HTML already has them (no script). A style attribute: the CSP allows those
 * (`style-src-attr`), not `<style>` elements.
 */
export function columnLabels(head: readonly string[]): CSSProperties {
  const vars: Record<string, string> = {};
  head.slice(0, MAX_LABELLED_COLUMNS).forEach((h, i) => {
    vars[`--col-${i + 1}`] = cssString(h);
  });
  return vars as CSSProperties;
}

/**
 * A data table. On a screen 640 px wide or more it is a table, and wider than its box it scrolls
 * sideways inside it (the page never does: tests/e2e/phone-width.spec.ts); the box is `relative`, so the
 * visually hidden texts of its cells (`sr-only` is absolutely positioned) stay inside it too. Below
 * 640 px each row is a stacked card, each value after its column's header (`data-table` in app.css),
 * so amounts, statuses and actions are on a phone's screen. The caption names it for screen readers.
 */
export function DataTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto">
      <table
        className="data-table min-w-full divide-y divide-slate-200 text-left text-sm"
        style={columnLabels(head)}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="data-head bg-slate-50 text-slate-700">
          <tr>
            {head.map((h, i) => (
              // Two columns may share a name (an email address and whether it is verified).
              // biome-ignore lint/suspicious/noArrayIndexKey: the head is a fixed list.
              <th key={`${i}-${h}`} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="data-rows divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A cell of a DataTable: its padding and alignment come from the table's `data-rows` rule (app.css). */
export function Td(props: ComponentProps<"td">) {
  return <td {...props} />;
}
