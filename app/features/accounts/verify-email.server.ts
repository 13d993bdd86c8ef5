/**
 * The verify-email page (client-portal.md §2): a confirmation is detected when the page loads and when
 * 'I've Verified My Email' is pressed; 'Resend Email' sends a new link. Whose address it is comes from
 * the route (the pending-verification cookie, or an unverified session).
 */
import { z } from "zod";
import { parseForm } from "~/ui/form";
import { checkVerification, resendVerification, type VerificationStatus } from "./accounts.server";
import type { AccountDeps } from "./deps.server";
import { ACCOUNT_MESSAGES } from "./messages";
import type { PendingVerification } from "./session.server";
import type { VerifyEmailState } from "./verify-email";

export interface VerifyEmailAnswer {
  state: VerifyEmailState;
  status: number;
}

function verifiedState(status: VerificationStatus & { verified: true }): VerifyEmailState {
  return { verified: true, email: status.email, name: status.name, message: null };
}

/** On load: confirmed already, or still waiting for `pending`'s address. */
export async function verificationState(
  deps: AccountDeps,
  pending: PendingVerification | null,
): Promise<VerifyEmailState> {
  if (pending) {
    const status = await checkVerification(deps, pending.email);
    if (status.verified) return verifiedState(status);
  }
  return { verified: false, email: pending?.email ?? null, name: pending?.name ?? "", message: null };
}

const verifyEmailForm = z.object({ intent: z.enum(["check", "resend"]) });

/** The page's two buttons; `whose` is read only for a valid form. */
export async function verifyEmailAction(
  deps: AccountDeps,
  values: Record<string, unknown>,
  whose: () => Promise<PendingVerification | null>,
): Promise<VerifyEmailAnswer> {
  const parsed = parseForm(verifyEmailForm, values);
  if (!parsed.ok) return { state: { verified: false, email: null, name: "", message: null }, status: 400 };
  const pending = await whose();
  const email = pending?.email ?? null;
  const name = pending?.name ?? "";
  const waiting = (tone: "success" | "error", text: string): VerifyEmailAnswer => ({
    state: { verified: false, email, name, message: { tone, text } },
    status: 200,
  });
  if (parsed.data.intent === "resend") {
    const message = await resendVerification(deps, email);
    return waiting(message === ACCOUNT_MESSAGES.resendSent ? "success" : "error", message);
  }
  try {
    const status = email ? await checkVerification(deps, email) : { verified: false as const };
    if (status.verified) return { state: verifiedState(status), status: 200 };
    return waiting("error", ACCOUNT_MESSAGES.notYetVerified);
  } catch (error) {
    deps.logger.error({ err: error }, "verification check failed");
    return waiting("error", ACCOUNT_MESSAGES.checkFailed);
  }
}
