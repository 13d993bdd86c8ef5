/**
 * An order's status timeline (ADR 0512) as an ordered list: each step with when it was reached, the
 * step the order is at marked `aria-current="step"`, upcoming steps said to be so in words (not only in
 * colour), and the owner's note to the client with a change under its step, as plain text. Either
 * side's order page shows it.
 */

import { cn } from "~/ui/cn";
import { formatMoment } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { useTimeZone } from "~/ui/time-zone";
import type { TimelineStep } from "./order-timeline";

function StepIcon({ step }: { step: TimelineStep }) {
  const className = "size-4";
  if (step.key === "cancelled") return <Icon name="circle-x" className={className} />;
  if (step.current) return <Icon name="circle-dot" className={className} />;
  if (step.state === "done") return <Icon name="check" className={className} />;
  return <Icon name="circle" className={className} />;
}

export function OrderTimeline({
  steps,
  headingId = "order-timeline-heading",
}: {
  steps: readonly TimelineStep[];
  headingId?: string;
}) {
  const tz = useTimeZone();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-bold">
        Progress
      </h2>
      <ol className="mt-4 space-y-0">
        {steps.map((step, i) => {
          const done = step.state === "done";
          return (
            <li
              key={step.key}
              data-step={step.key}
              data-state={step.state}
              aria-current={step.current ? "step" : undefined}
              className="relative flex gap-3 pb-5 last:pb-0"
            >
              {i < steps.length - 1 && (
                <span
                  aria-hidden="true"
                  className={cn(
                    "absolute top-7 bottom-0 left-3.5 w-px -translate-x-1/2",
                    done ? "bg-brand-600" : "bg-slate-300",
                  )}
                />
              )}
              <span
                aria-hidden="true"
                className={cn(
                  "grid size-7 shrink-0 place-items-center rounded-full",
                  step.key === "cancelled"
                    ? "bg-slate-200 text-slate-800"
                    : done
                      ? "bg-brand-600 text-white"
                      : "border border-slate-300 bg-white text-slate-500",
                )}
              >
                <StepIcon step={step} />
              </span>
              <span className="min-w-0">
                <span className={cn("block font-semibold", done ? "text-ink" : "text-slate-600")}>
                  {step.label}
                  {step.current && <span className="sr-only"> (current step)</span>}
                </span>
                <span className="block text-sm text-slate-600">
                  {done ? (
                    step.at ? (
                      <time dateTime={new Date(step.at).toISOString()}>{formatMoment(step.at, tz)}</time>
                    ) : (
                      "Time not recorded"
                    )
                  ) : (
                    "Not yet"
                  )}
                </span>
                {step.note && (
                  <span className="mt-1 block whitespace-pre-line break-words rounded-lg bg-slate-100 px-3 py-2 text-sm text-ink">
                    <span className="sr-only">Note: </span>
                    {step.note}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
