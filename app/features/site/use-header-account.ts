/**
 * Who the public header shows as signed in (ADR 0822). Where the root loader looked the session up, its
 * user. On a shared public page it did not (the page is the same for everyone, served from the cache):
 * the header shows the visitor's buttons as rendered and, once hydrated, asks GET /api/session, which
 * answers for this browser's session; the currency that answer carries corrects the page's when they
 * differ (a client's saved choice the pinned-currency cookie did not hold yet).
 */
import { useEffect, useState } from "react";
import {
  SESSION_ANSWER_PATH,
  type SessionAnswer,
  sessionAnswerFrom,
} from "~/features/accounts/session-answer";
import { useCurrencyStore } from "~/features/currency/CurrencyContext";
import { useOptionalRootData } from "./root-data";

export interface HeaderAccount {
  role: "client" | "admin";
}

export interface HeaderAccountState {
  /** The signed-in person's role, or null for the visitor's buttons. */
  account: HeaderAccount | null;
  /** True where the answer may change after load: the header then holds the room of both states. */
  afterLoad: boolean;
}

async function askSession(signal: AbortSignal): Promise<SessionAnswer | null> {
  const response = await fetch(SESSION_ANSWER_PATH, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) return null;
  return sessionAnswerFrom(await response.json());
}

export function useHeaderAccount(): HeaderAccountState {
  const root = useOptionalRootData();
  const store = useCurrencyStore();
  const [answered, setAnswered] = useState<HeaderAccount | null>(null);
  useEffect(() => {
    // Asked again whenever the root data is new (a revalidation after signing in or out).
    if (!root?.accountAfterLoad) return;
    const controller = new AbortController();
    askSession(controller.signal).then(
      (answer) => {
        if (!answer || controller.signal.aborted) return;
        setAnswered(answer.signedIn ? { role: answer.role } : null);
        if (store && answer.currency.currency !== store.getSnapshot().currency) store.absorb(answer.currency);
      },
      // Offline, or the server is unavailable: the visitor's header stays, as without JavaScript.
      () => {},
    );
    return () => controller.abort();
  }, [root, store]);
  if (!root) return { account: null, afterLoad: false };
  if (root.accountAfterLoad) return { account: answered, afterLoad: true };
  return { account: root.user ? { role: root.user.role } : null, afterLoad: false };
}
