import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

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
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {head.map((h, i) => (
              // Two columns may share a name (an email address and whether it is verified).
              // biome-ignore lint/suspicious/noArrayIndexKey: the head is a fixed list.
              <th key={`${i}-${h}`} scope="col" className="whitespace-nowrap px-4 py-3 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function Td({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 align-top", className)} {...props} />;
}
