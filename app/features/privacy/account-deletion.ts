/**
 * The pure parts of "Delete my account" (issue 25, ADR 0520): what to type, the form's rules shared by
 * the browser and the server, the messages, and the placeholders a deleted account's fields hold.
 */
import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/features/accounts/password";

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

const confirmation = z.string().refine((v) => v.trim() === DELETE_CONFIRMATION, {
  message: DELETION_MESSAGES.confirmRequired,
});

/** The client's form: the current password, the two-factor code when it is on, and DELETE. */
export const deleteAccountSchema = z.object({
  password: z
    .string()
    .min(1, { message: DELETION_MESSAGES.passwordRequired })
    .max(MAX_PASSWORD_LENGTH, { message: DELETION_MESSAGES.passwordWrong }),
  code: z
    .string()
    .max(64, { message: DELETION_MESSAGES.codeRequired })
    .optional()
    .transform((v) => v?.replace(/\s+/g, "") ?? ""),
  confirm: confirmation,
});

/** The owner's form: DELETE and the owner's own password. */
export const ownerDeleteClientSchema = z.object({
  password: z
    .string()
    .min(1, { message: DELETION_MESSAGES.ownerPasswordRequired })
    .max(MAX_PASSWORD_LENGTH, { message: DELETION_MESSAGES.ownerPasswordWrong }),
  confirm: confirmation,
});
