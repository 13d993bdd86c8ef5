/**
 * The portal's side of live updates: one EventSource on /api/events per page, the Live/Offline state
 * from its real state (client-portal.md §4 "Live indicator"), revalidation of the page's data when an
 * event arrives (or after a drop), and a toast when a notification arrives.
 */
import { X } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";

export type LiveStatus = "connecting" | "live" | "offline";

interface LiveToast {
  key: number;
  title: string;
  message: string;
  type: string;
}

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
const TOAST_MS = 6000;

export function LiveUpdates({ since, children }: { since: number; children: ReactNode }) {
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const [toasts, setToasts] = useState<LiveToast[]>([]);
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
    let toastKey = 0;

    // Several events at once (a payment: order, invoice, two notifications) cause one reload of data.
    const refresh = () => {
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => void revalidateRef.current(), 100);
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
          const toast = { key: ++toastKey, ...data.notification };
          setToasts((list) => [...list.slice(-2), toast]);
          setTimeout(() => setToasts((list) => list.filter((t) => t.key !== toast.key)), TOAST_MS);
        }
        refresh();
      });
      es.addEventListener("signed-out", () => {
        // This session ended (signed out in another tab): the access gate sends the page to login.
        es.close();
        stopped = true;
        setStatus("offline");
        void revalidateRef.current();
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

  const dismiss = useCallback((key: number) => setToasts((list) => list.filter((t) => t.key !== key)), []);

  return (
    <LiveContext.Provider value={status}>
      {children}
      {/* A polite live region (not role=status: the pages' own form messages are the status). */}
      <div
        aria-live="polite"
        data-toasts
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
      >
        {toasts.map((t) => (
          <div
            key={t.key}
            className="pointer-events-auto rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
            data-toast-type={t.type}
          >
            <div className="flex items-start justify-between gap-2">
              <p className="font-semibold text-ink">{t.title}</p>
              <button
                type="button"
                onClick={() => dismiss(t.key)}
                className="rounded p-1 text-slate-600 hover:bg-slate-100"
                aria-label="Dismiss notification"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </div>
            <p className="mt-1 text-sm text-slate-700">{t.message}</p>
          </div>
        ))}
      </div>
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
