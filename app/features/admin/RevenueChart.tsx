/**
 * Revenue per month, net of refunds (revenueByMonth), as server-rendered SVG bars: each month's bar
 * stacks recurring revenue (care plans' periods, ADR 0531) under one-off revenue (every other sale),
 * with a legend beside it and the same figures in a table for screen readers and anyone who prefers
 * numbers (the SVG is hidden from assistive technology). A part where more was refunded than paid has
 * no height, only its (negative) figure in the table; the label over a bar is the month's net total.
 * The table's toggle follows the figure rather than sitting in it: a figure's caption is its first or
 * last child (HTML's content model; tests/integration/valid-markup.test.ts).
 */

import { formatMoney } from "~/features/money/format";
import { toMinorUnits } from "~/features/money/minor-units";
import { formatCount } from "~/ui/format";
import { monthLabel } from "./month-label";

export interface RevenuePoint {
  month: string;
  /** Net revenue of the month: recurring and one-off together. */
  usd: number;
  /** Of it, care plans' periods (orders with a plan subscription). */
  recurringUsd: number;
  /** Of it, every other sale. */
  oneOffUsd: number;
  invoices: number;
}

const W = 720;
const H = 220;
const PAD_BOTTOM = 28;
const PAD_TOP = 20;

/** The two parts of a bar, bottom first, with their colours (also the legend's swatches). */
const PARTS = [
  { key: "recurring", label: "Recurring (care plans)", fill: "#0f766e", swatch: "bg-[#0f766e]" },
  { key: "one-off", label: "One-off sales", fill: "#1d5fd6", swatch: "bg-[#1d5fd6]" },
] as const;

/** Twelve amounts added in cents, so the sum stays exact. */
const sum = (amounts: number[]) => amounts.reduce((cents, usd) => cents + toMinorUnits(usd, "USD"), 0) / 100;

export function RevenueChart({ data }: { data: RevenuePoint[] }) {
  const parts = (d: RevenuePoint) => [Math.max(0, d.recurringUsd), Math.max(0, d.oneOffUsd)] as const;
  const max = Math.max(1, ...data.map((d) => parts(d)[0] + parts(d)[1]));
  const total = sum(data.map((d) => d.usd));
  const recurring = sum(data.map((d) => d.recurringUsd));
  const oneOff = sum(data.map((d) => d.oneOffUsd));
  const slot = W / Math.max(1, data.length);
  const barW = slot * 0.6;
  const scale = (usd: number) => ((H - PAD_BOTTOM - PAD_TOP) * usd) / max;
  return (
    <>
      <figure>
        <ul
          className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700"
          data-testid="revenue-legend"
        >
          {PARTS.map((p) => (
            <li key={p.key} className="flex items-center gap-2">
              <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${p.swatch}`} />
              {p.label}
            </li>
          ))}
        </ul>
        <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" aria-hidden="true" focusable="false">
          <line x1={0} x2={W} y1={H - PAD_BOTTOM} y2={H - PAD_BOTTOM} stroke="#cbd5e1" />
          {data.map((d, i) => {
            const x = i * slot + (slot - barW) / 2;
            const [rec, one] = parts(d);
            const recH = scale(rec);
            const oneH = scale(one);
            const top = H - PAD_BOTTOM - recH - oneH;
            return (
              <g key={d.month}>
                <rect
                  data-part="recurring"
                  x={x}
                  y={H - PAD_BOTTOM - recH}
                  width={barW}
                  height={recH}
                  fill={PARTS[0].fill}
                />
                {/* A white hairline between the parts, so they stay apart without telling colours. */}
                <rect
                  data-part="one-off"
                  x={x}
                  y={top}
                  width={barW}
                  height={oneH}
                  fill={PARTS[1].fill}
                  stroke="#fff"
                  strokeWidth={oneH > 0 && recH > 0 ? 1 : 0}
                />
                {d.usd !== 0 && (
                  <text x={x + barW / 2} y={top - 4} textAnchor="middle" fontSize="10" fill="#334155">
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
          Paid invoices less refunds, USD, last 12 months: {formatMoney(total, "USD")} in total. Recurring
          (care plans): {formatMoney(recurring, "USD")}; one-off sales: {formatMoney(oneOff, "USD")}.
        </figcaption>
      </figure>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Show the figures as a table</summary>
        <div className="relative overflow-x-auto">
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
                <th scope="col" className="pr-6 text-right">
                  Paid invoices
                </th>
                <th scope="col" className="pr-6 text-right">
                  Recurring (USD)
                </th>
                <th scope="col" className="text-right">
                  One-off (USD)
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
                  <td className="pr-6 text-right tabular-nums">{d.invoices}</td>
                  <td className="pr-6 text-right tabular-nums">{formatMoney(d.recurringUsd, "USD")}</td>
                  <td className="text-right tabular-nums">{formatMoney(d.oneOffUsd, "USD")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
