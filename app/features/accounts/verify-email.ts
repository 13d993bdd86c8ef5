/** What the verify-email page shows: made in verify-email.server.ts, read by VerifyEmailPage.tsx. */
export type VerifyEmailState =
  | { verified: true; email: string; name: string; message: null }
  | {
      verified: false;
      /** Whose address the page waits for; null when it does not know (no cookie, no session). */
      email: string | null;
      name: string;
      message: { tone: "success" | "error"; text: string } | null;
    };
