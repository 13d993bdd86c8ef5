/**
 * The back office refund form's steps (ADR 0505), as the page receives them: the form, then a
 * confirmation rendered by the server (so it works without JavaScript), then the refund. Types only,
 * shared by the action (refund-form.server.ts) and the page (admin/RefundPanel.tsx).
 */
import type { ActionFailure, ActionSuccess } from "~/ui/form";

/** What the owner typed, given back to the form (Back, or a refused post): nothing typed is lost. */
export interface RefundDraft {
  amount: string;
  reason: string;
  reference: string;
}

/** The confirmation step: the refund the form would make, checked but not reserved. */
export interface RefundReview {
  /** As typed; read again, exactly, when confirmed. */
  amount: string;
  amountText: string;
  invoiceNumber: string;
  via: string;
  reason: string;
  reference: string | null;
  /** It gives back all that is left of the invoice. */
  whole: boolean;
  formToken: string;
  /** The signed mark the Confirm button posts back (refund-form-token.server.ts); set by the form's action. */
  confirmation?: string;
}

/** What a refused post gives back, and the Back step too: what was typed, and a fresh form token. */
export interface RefundRetry {
  refundDraft: RefundDraft;
  refundToken: string;
}

/** Every answer of the refund form's action: the one form answer (ADR 0011), by step. */
export type RefundFormAnswer =
  | ActionSuccess<{ message: string }>
  | ActionSuccess<{ refundReview: RefundReview }>
  | ActionSuccess<RefundRetry>
  | ActionFailure<RefundRetry>;
