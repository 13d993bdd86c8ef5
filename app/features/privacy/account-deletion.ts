/**
 * The pure parts of "Delete my account" (issue 25, ADR 0520): what to type, the messages, and the
 * placeholders a deleted account's fields hold. No zod here: the profile page's JavaScript imports it.
 */

/** The word typed to confirm, exactly (capitals). */
export const DELETE_CONFIRMATION = "DELETE";

export const DELETION_MESSAGES = {
  passwordRequired: "Enter your current password to confirm.",
  passwordWrong: "Current password is incorrect. Nothing was deleted.",
  codeRequired: "Enter the 6-digit code from your authenticator app, or a backup code.",
  codeWrong: "That code is not valid. Nothing was deleted.",
  confirmRequired: `Type ${DELETE_CONFIRMATION} in capitals to confirm.`,
  ownerPasswordRequired: "Enter your own password to confirm.",
  ownerPasswordWrong: "Your password is incorrect. Nothing was deleted.",
  admin: "An admin account cannot be deleted here.",
  alreadyDeleted: "This account has already been deleted.",
  notFound: "Client not found.",
  failed: "Something went wrong and nothing was deleted. Please try again.",
  exportOfDeleted: "This client's account was deleted: nothing is left to export.",
} as const;

/**
 * What refuses a deletion, named as the client knows it (issue 37, item 11): an unpaid invoice of an
 * order past pending (by its number, so the page can offer Pay), or an order whose work is owed (paid
 * and waiting, or in progress), or a care plan that still renews (cancelled, it ends with its period and
 * no longer blocks). Unpaid pending orders do not block: the deletion cancels them.
 */
export type DeletionBlocker =
  | { kind: "unpaid-invoice"; invoiceId: string; invoiceNumber: string; serviceName: string }
  | { kind: "work-owed"; orderId: string; serviceName: string; status: "paid" | "in_progress" }
  | { kind: "care-plan"; subscriptionId: string; planName: string };

/** What the profile's Privacy tab shows before its forms (privacy-tab.server.ts reads it). */
export interface PrivacyTabData {
  /** Data exports the client may still download today. */
  exportsLeft: number;
  deletionBlockers: DeletionBlocker[];
}

/** One blocker in words: "unpaid invoice INV-2026-0025 (Data Migration)", "SSL Certificate, in progress". */
export function blockerText(blocker: DeletionBlocker): string {
  if (blocker.kind === "unpaid-invoice")
    return `unpaid invoice ${blocker.invoiceNumber} (${blocker.serviceName})`;
  if (blocker.kind === "care-plan") return `care plan ${blocker.planName} (still renewing)`;
  const state = blocker.status === "paid" ? "paid, work not started" : "in progress";
  return `order ${blocker.serviceName} (${state})`;
}

/** Why the account cannot be deleted yet and what to do, naming each blocker (the client's or the owner's words). */
export function blockedMessage(blockers: DeletionBlocker[], by: "client" | "owner"): string {
  const list = blockers.map(blockerText).join("; ");
  const unpaid = blockers.some((b) => b.kind === "unpaid-invoice");
  const owed = blockers.some((b) => b.kind === "work-owed");
  const plan = blockers.some((b) => b.kind === "care-plan");
  if (by === "owner") {
    const todo = [
      unpaid && "mark the invoices paid or void them",
      owed && "complete or cancel the orders",
      plan && "the client cancels the care plan",
    ];
    return `This client's account cannot be deleted yet: ${list}. First ${todo.filter(Boolean).join(", and ")}.`;
  }
  const todo = [
    unpaid && "pay the unpaid invoices",
    owed && "wait until the work is completed (or ask us to cancel it)",
    plan && "cancel the care plan in Care Plans",
  ];
  return `Your account cannot be deleted yet: ${list}. First ${todo.filter(Boolean).join(", and ")}, then try again.`;
}

/** The name and email a deleted account holds instead of its own. */
export const DELETED_NAME = "Deleted client";
export function deletedEmail(userId: string): string {
  return `deleted-${userId.replace(/[^A-Za-z0-9_-]+/g, "_")}@deleted.invalid`;
}
