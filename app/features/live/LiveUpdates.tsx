/**
 * The portal's side of live updates: one EventSource on /api/events per page, the Live/Offline state
 * from its real state (client-portal.md §4 "Live indicator"), revalidation of the page's data when an
 * event arrives (or after a drop), and a toast when a notification arrives.
 */
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { Toasts, useToasts } from "~/ui/toast";

export type LiveStatus = "connecting" | "live" | "offline";

const LiveContext = createContext<LiveStatus>("connecting");

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext);
}

interface ChangeData {
  kind: string;
  status: string | null;
  notification?: { title: string; message: string; type: string } | null;
}

const MAX_RETRY_MS = 5000;

export function LiveUpdates({ since, children }: { since: number; children: ReactNode }) {
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const { toasts, show, dismiss } = useToasts();
  const showRef = useRef(show);
  showRef.current = show;
  const revalidator = useRevalidator();
  const revalidateRef = useRef(revalidator.revalidate);
  revalidateRef.current = revalidator.revalidate;
  const sinceRef = useRef(since);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let debounce: ReturnType<typeof setTimeout> | null = null;
    let delay = 1000;
    let wasOffline = false;
    let stopped = false;

    // A reload cut short by a navigation rejects with an AbortError (React Router's revalidate): nothing
    // is lost, the next page loads its own data. Any other failure still surfaces.
    const reload = () =>
      void revalidateRef.current().catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === "AbortError")) throw error;
      });
    // Several events at once (a payment: order, invoice, two notifications) cause one reload of data.
    const refresh = () => {
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(reload, 100);
    };

    const open = () => {
      if (stopped) return;
      const es = new EventSource(`/api/events?since=${sinceRef.current}`);
      source = es;
      es.onopen = () => {
        delay = 1000;
        setStatus("live");
        // Anything missed while offline is replayed from the log; refresh anyway in case it was pruned.
        if (wasOffline) refresh();
        wasOffline = false;
      };
      es.onerror = () => {
        setStatus("offline");
        wasOffline = true;
        if (es.readyState === EventSource.CLOSED) {
          // The browser gave up (an error status, e.g. while the server restarts): try again ourselves.
          source = null;
          retry = setTimeout(open, delay);
          delay = Math.min(delay * 2, MAX_RETRY_MS);
        }
      };
      es.addEventListener("change", (event) => {
        const id = Number((event as MessageEvent).lastEventId);
        if (id > sinceRef.current) sinceRef.current = id;
        let data: ChangeData | null = null;
        try {
          data = JSON.parse((event as MessageEvent).data) as ChangeData;
        } catch {
          return;
        }
        if (data.kind === "notification" && data.status === "unread" && data.notification) {
          showRef.current(data.notification);
        }
        refresh();
      });
      es.addEventListener("signed-out", () => {
        // This session ended (signed out in another tab): the access gate sends the page to login.
        es.close();
        stopped = true;
        setStatus("offline");
        reload();
      });
    };
    open();
    return () => {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
      if (debounce) clearTimeout(debounce);
    };
  }, []);

  return (
    <LiveContext.Provider value={status}>
      {children}
      <Toasts toasts={toasts} onDismiss={dismiss} />
    </LiveContext.Provider>
  );
}

export function LiveIndicator() {
  const status = useLiveStatus();
  const live = status === "live";
  return (
    <span
      className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-medium ${
        live ? "bg-green-50 text-green-800" : "bg-slate-100 text-slate-700"
      }`}
      data-live-status={status}
      title={live ? "Live updates are on" : "Live updates are paused; reconnecting"}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${live ? "bg-green-600" : "bg-slate-500"}`} />
      {live ? "Live" : "Offline"}
    </span>
  );
}
