/**
 * Toasts: short messages at the bottom right that go by themselves. Shown in a polite live region (not
 * role=status: a page's own form messages are the status), at most three at a time, each dismissable.
 */

import { useCallback, useRef, useState } from "react";
import { Icon } from "~/ui/icon";
import { cardClass } from "./card-class";

export interface Toast {
  title: string;
  message: string;
  /** What kind of message it is (a notification's type); on the element as data-toast-type. */
  type: string;
}

type Shown = Toast & { key: number };

const MAX_SHOWN = 3;

/** The toasts on screen; `show` adds one that goes after `ms`. */
export function useToasts(ms = 6000) {
  const [toasts, setToasts] = useState<Shown[]>([]);
  const next = useRef(0);
  const dismiss = useCallback((key: number) => setToasts((list) => list.filter((t) => t.key !== key)), []);
  const show = useCallback(
    (toast: Toast) => {
      const shown = { ...toast, key: ++next.current };
      setToasts((list) => [...list.slice(-(MAX_SHOWN - 1)), shown]);
      setTimeout(() => dismiss(shown.key), ms);
    },
    [dismiss, ms],
  );
  return { toasts, show, dismiss };
}

export function Toasts({
  toasts,
  onDismiss,
  dismissLabel = "Dismiss notification",
}: {
  toasts: readonly Shown[];
  onDismiss: (key: number) => void;
  dismissLabel?: string;
}) {
  return (
    <div
      aria-live="polite"
      data-toasts
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
    >
      {toasts.map((t) => (
        <div
          key={t.key}
          className={cardClass("pointer-events-auto rounded-lg p-4 shadow-lg")}
          data-toast-type={t.type}
        >
          <div className="flex items-start justify-between gap-2">
            <p className="font-semibold text-ink">{t.title}</p>
            <button
              type="button"
              onClick={() => onDismiss(t.key)}
              className="rounded p-1 text-slate-600 hover:bg-slate-100"
              aria-label={dismissLabel}
            >
              <Icon name="x" className="size-4" />
            </button>
          </div>
          <p className="mt-1 text-sm text-slate-700">{t.message}</p>
        </div>
      ))}
    </div>
  );
}
