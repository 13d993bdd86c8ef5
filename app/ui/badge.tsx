import type { ComponentProps } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "muted" | "info" | "success" | "warning" | "danger" | "brand";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-slate-200 text-slate-800",
  muted: "bg-slate-100 text-slate-700",
  info: "bg-blue-100 text-blue-900",
  success: "bg-green-100 text-green-900",
  warning: "bg-amber-100 text-amber-900",
  danger: "bg-red-100 text-red-900",
  brand: "bg-brand-600 text-white",
};

/** A small rounded label: a status, a count, a "POPULAR" tag (its shape is the `.badge` rule in app.css). */
export function Badge({
  tone = "muted",
  className,
  ...props
}: ComponentProps<"span"> & { tone?: BadgeTone }) {
  return <span {...props} className={cn("badge", TONES[tone], className)} />;
}

/** The tone of every order, invoice, message and account status; others are shown muted. */
const STATUS_TONES: Record<string, BadgeTone> = {
  pending: "warning",
  paid: "success",
  in_progress: "info",
  completed: "success",
  cancelled: "neutral",
  sent: "info",
  overdue: "danger",
  void: "neutral",
  refunded: "neutral",
  received: "info",
  new: "warning",
  quoted: "success",
  closed: "neutral",
  draft: "muted",
  partially_refunded: "warning",
  unread: "warning",
  read: "muted",
  verified: "success",
  unverified: "warning",
  // Quotes (issue "quotes"); sent is an invoice's tone above.
  accepted: "success",
  declined: "neutral",
  expired: "neutral",
  superseded: "neutral",
  // Care plans (issue 38).
  active: "success",
  waiting: "warning",
  past_due: "danger",
  suspended: "danger",
  ending: "warning",
};

/** The tone a status is shown in (muted when it has none of its own). */
export function statusTone(status: string): BadgeTone {
  return STATUS_TONES[status] ?? "muted";
}

/** Human words for a status key ("in_progress" → "In Progress"). */
export function statusLabel(status: string): string {
  return status
    .split(/[_-]/)
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(" ");
}

/**
 * A status as a badge, the same words in the portal and the back office ("In Progress", "Paid": the
 * owner reads what the client reads); `label` names it in words of its own ("Partially refunded").
 */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge tone={statusTone(status)} data-status={status}>
      {label ?? statusLabel(status)}
    </Badge>
  );
}
