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

/** One open order that blocks a deletion (what the message names). */
export interface BlockingOrder {
  id: string;
  serviceName: string;
  status: string;
}

/** "Finish or cancel it first", naming the orders (the client's words, or the owner's). */
export function blockedMessage(orders: BlockingOrder[], by: "client" | "owner"): string {
  const names = orders.map((o) => `${o.serviceName} (${o.status.replace("_", " ")}, ${o.id.slice(0, 8)})`);
  const list = names.join("; ");
  const one = orders.length === 1;
  return by === "client"
    ? `Your account cannot be deleted while ${one ? "an order is" : "orders are"} in progress or unpaid: ${list}. Wait until ${one ? "it is" : "they are"} completed, or ask us to cancel ${one ? "it" : "them"}, then try again.`
    : `This client has ${one ? "an order" : "orders"} in progress or unpaid: ${list}. Complete or cancel ${one ? "it" : "them"} first, then delete the account.`;
}

/** The name and email a deleted account holds instead of its own. */
export const DELETED_NAME = "Deleted client";
export function deletedEmail(userId: string): string {
  return `deleted-${userId.replace(/[^A-Za-z0-9_-]+/g, "_")}@deleted.invalid`;
}
