/**
 * Revenue per month, net of refunds (revenueByMonth), as server-rendered SVG bars, with the same figures
 * in a table for screen readers and anyone who prefers numbers (the SVG is hidden from assistive
 * technology). A month where more was refunded than paid has no bar, only its (negative) figure.
 * The table's toggle follows the figure rather than sitting in it: a figure's caption is its first or
 * last child (HTML's content model; tests/integration/valid-markup.test.ts).
 */

import { formatMoney } from "~/features/money/format";
import { formatCount } from "~/ui/format";
import { monthLabel } from "./month-label";

export interface RevenuePoint {
  month: string;
  usd: number;
  invoices: number;
}

const W = 720;
const H = 220;
const PAD_BOTTOM = 28;
const PAD_TOP = 20;

export function RevenueChart({ data }: { data: RevenuePoint[] }) {
  const max = Math.max(1, ...data.map((d) => d.usd));
  // In cents, so that adding twelve sums stays exact.
  const total = data.reduce((cents, d) => cents + Math.round(d.usd * 100), 0) / 100;
  const slot = W / Math.max(1, data.length);
  const barW = slot * 0.6;
  return (
    <>
      <figure>
        <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" aria-hidden="true" focusable="false">
          <line x1={0} x2={W} y1={H - PAD_BOTTOM} y2={H - PAD_BOTTOM} stroke="#cbd5e1" />
          {data.map((d, i) => {
            const h = ((H - PAD_BOTTOM - PAD_TOP) * Math.max(0, d.usd)) / max;
            const x = i * slot + (slot - barW) / 2;
            return (
              <g key={d.month}>
                <rect x={x} y={H - PAD_BOTTOM - h} width={barW} height={h} rx={3} fill="#1d5fd6" />
                {d.usd !== 0 && (
                  <text
                    x={x + barW / 2}
                    y={H - PAD_BOTTOM - h - 4}
                    textAnchor="middle"
                    fontSize="10"
                    fill="#334155"
                  >
                    {formatCount(Math.round(d.usd))}
                  </text>
                )}
                <text x={x + barW / 2} y={H - 10} textAnchor="middle" fontSize="11" fill="#475569">
                  {monthLabel(d.month).slice(0, 3)}
                </text>
              </g>
            );
          })}
        </svg>
        <figcaption className="mt-2 text-sm text-slate-600">
          Paid invoices less refunds, USD, last 12 months: {formatMoney(total, "USD")} in total.
        </figcaption>
      </figure>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the figures as a table</summary>
        <table className="mt-2 min-w-[20rem] text-left">
          <caption className="sr-only">Revenue per month</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-6">
                Month
              </th>
              <th scope="col" className="pr-6 text-right">
                Net revenue (USD)
              </th>
              <th scope="col" className="text-right">
                Paid invoices
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.month}>
                <th scope="row" className="pr-6 font-normal">
                  {monthLabel(d.month)}
                </th>
                <td className="pr-6 text-right tabular-nums">{formatMoney(d.usd, "USD")}</td>
                <td className="text-right tabular-nums">{d.invoices}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
