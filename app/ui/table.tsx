import type { ComponentProps, ReactNode } from "react";

/**
 * A data table. Wider than the screen (a phone), it scrolls sideways inside its own box and the page
 * never does (tests/e2e/phone-width.spec.ts); the box is `relative`, so the visually hidden texts of its
 * cells (`sr-only` is absolutely positioned) stay inside it too. The caption names it for screen readers.
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
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
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
