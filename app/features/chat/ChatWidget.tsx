import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Icon } from "~/ui/icon";
import {
  CHAT_AUTO_OPEN_MS,
  CHAT_RECHECK_MS,
  CHAT_SEEN_KEY,
  type ChatMessage,
  holdAutoOpen,
  isSendable,
  MECH_NAME,
  mechReply,
  replyDelayMs,
  WELCOME_DELAY_MS,
  WELCOME_MESSAGE,
} from "./mech";

type View = "closed" | "open" | "minimized";

function newMessage(text: string, sender: ChatMessage["sender"]): ChatMessage {
  return { id: crypto.randomUUID(), text, sender, timestamp: new Date().toISOString() };
}

function readSeen(): boolean {
  try {
    return window.localStorage.getItem(CHAT_SEEN_KEY) === "true";
  } catch {
    // Storage can be blocked; then every visit counts as a first one, which is harmless.
    return false;
  }
}

function markSeen() {
  try {
    window.localStorage.setItem(CHAT_SEEN_KEY, "true");
  } catch {
    /* see readSeen */
  }
}

/** Runs timers that are all cancelled when the widget unmounts. */
function useTimers() {
  const timers = useRef(new Set<number>());
  useEffect(() => {
    const set = timers.current;
    return () => {
      for (const t of set) window.clearTimeout(t);
    };
  }, []);
  return useCallback((fn: () => void, ms: number) => {
    const t = window.setTimeout(() => {
      timers.current.delete(t);
      fn();
    }, ms);
    timers.current.add(t);
  }, []);
}

/** Mech, the scripted chat assistant. Loaded lazily after hydration by ChatMount. */
export default function ChatWidget() {
  const [view, setView] = useState<View>("closed");
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [typing, setTyping] = useState(false);
  const [draft, setDraft] = useState("");
  const welcomed = useRef(false);
  /** Where focus goes after the next render: the input on opening, the launcher on closing. */
  const focusNext = useRef<"input" | "launcher" | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const widgetRef = useRef<HTMLElement>(null);
  const later = useTimers();
  const panelId = useId();
  const titleId = useId();

  const open = useCallback(
    (focus: boolean) => {
      setView("open");
      markSeen();
      if (!welcomed.current) {
        welcomed.current = true;
        later(() => setMessages((m) => [...m, newMessage(WELCOME_MESSAGE, "bot")]), WELCOME_DELAY_MS);
      }
      // Only a visitor's own click moves focus; the automatic opening must not steal it.
      if (focus) focusNext.current = "input";
    },
    [later],
  );

  // When the visitor last typed outside the chat, so the automatic opening never lands on a form in use.
  const lastTyping = useRef<number | null>(null);
  useEffect(() => {
    const onInput = (event: Event) => {
      if (!(event.target instanceof Node && widgetRef.current?.contains(event.target))) {
        lastTyping.current = Date.now();
      }
    };
    document.addEventListener("input", onInput, true);
    return () => document.removeEventListener("input", onInput, true);
  }, []);

  // First visit: open by itself after 3 s, remembered in local storage; but wait while a form field
  // has focus or was just typed in, and look again each second.
  useEffect(() => {
    if (readSeen()) return;
    const attempt = () => {
      const active = document.activeElement as HTMLElement | null;
      const focused = active && !widgetRef.current?.contains(active) ? active : null;
      const since = lastTyping.current === null ? null : Date.now() - lastTyping.current;
      if (readSeen()) return;
      if (
        holdAutoOpen({
          focused: focused && {
            tagName: focused.tagName,
            type: focused.getAttribute("type"),
            isContentEditable: focused.isContentEditable,
          },
          msSinceTyping: since,
        })
      ) {
        later(attempt, CHAT_RECHECK_MS);
      } else open(false);
    };
    later(attempt, CHAT_AUTO_OPEN_MS);
  }, [later, open]);

  // Keep the newest message in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls whenever the log grows.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, typing]);

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isSendable(draft) || typing) return;
    const text = draft.trim();
    setDraft("");
    setMessages((m) => [...m, newMessage(text, "user")]);
    setTyping(true);
    later(() => {
      setTyping(false);
      setMessages((m) => [...m, newMessage(mechReply(text), "bot")]);
    }, replyDelayMs());
  }

  function close() {
    focusNext.current = "launcher";
    setView("closed");
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of view.
  useEffect(() => {
    const target =
      focusNext.current === "input"
        ? inputRef.current
        : focusNext.current === "launcher"
          ? launcherRef.current
          : null;
    focusNext.current = null;
    target?.focus();
  }, [view]);

  if (view === "closed") {
    return (
      <aside ref={widgetRef} aria-label="Chat assistant">
        <button
          ref={launcherRef}
          type="button"
          onClick={() => open(true)}
          className="fixed bottom-4 right-4 z-40 inline-flex items-center gap-2 rounded-full bg-brand-600 p-3 font-semibold text-white shadow-lg hover:bg-brand-700 sm:px-4 print:hidden"
        >
          <Icon name="message-circle" className="size-6 sm:size-5" />
          {/* A round button on a phone, so it hides as little as it can while one scrolls past it. */}
          <span className="sr-only sm:not-sr-only">Chat with {MECH_NAME}</span>
        </button>
      </aside>
    );
  }

  const minimized = view === "minimized";
  return (
    <aside ref={widgetRef} aria-label="Chat assistant">
      <section
        role="dialog"
        aria-labelledby={titleId}
        className="fixed bottom-4 right-4 z-40 flex w-[min(22rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl print:hidden"
      >
        <header className="flex items-center justify-between gap-2 bg-brand-700 px-4 py-3 text-white">
          <h2 id={titleId} className="flex items-center gap-2 font-semibold">
            <Icon name="bot" className="size-5" /> {MECH_NAME}
            <span className="text-xs font-normal text-brand-50">IT assistant</span>
          </h2>
          <div className="flex gap-1">
            <button
              type="button"
              aria-expanded={!minimized}
              aria-controls={panelId}
              onClick={() => setView(minimized ? "open" : "minimized")}
              className="rounded p-1 hover:bg-white/20"
            >
              <Icon name="minus" className="size-4" />
              <span className="sr-only">{minimized ? "Restore chat" : "Minimize chat"}</span>
            </button>
            <button type="button" onClick={close} className="rounded p-1 hover:bg-white/20">
              <Icon name="x" className="size-4" />
              <span className="sr-only">Close chat</span>
            </button>
          </div>
        </header>
        <div id={panelId} hidden={minimized}>
          <div
            ref={logRef}
            role="log"
            aria-label="Conversation"
            className="h-72 space-y-3 overflow-y-auto bg-slate-50 p-4 text-sm"
          >
            {messages.map((m) => (
              <p
                key={m.id}
                data-sender={m.sender}
                className={`max-w-[85%] rounded-2xl px-3 py-2 ${
                  m.sender === "user" ? "ml-auto bg-brand-600 text-white" : "bg-white text-ink shadow-sm"
                }`}
              >
                <span className="sr-only">{m.sender === "user" ? "You: " : `${MECH_NAME}: `}</span>
                {m.text}
              </p>
            ))}
            {typing && (
              <p
                className="w-fit rounded-2xl bg-white px-3 py-2 text-slate-600 shadow-sm"
                data-testid="typing"
              >
                {MECH_NAME} is typing…
              </p>
            )}
          </div>
          <form onSubmit={send} className="flex gap-2 border-t border-slate-200 p-3">
            <label htmlFor={`${panelId}-input`} className="sr-only">
              Message {MECH_NAME}
            </label>
            <input
              ref={inputRef}
              id={`${panelId}-input`}
              type="text"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              autoComplete="off"
              placeholder="Type your message…"
              className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
            <button
              type="submit"
              disabled={!isSendable(draft) || typing}
              className="rounded-lg bg-brand-600 px-3 py-2 text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
            >
              <Icon name="send" className="size-4" />
              <span className="sr-only">Send</span>
            </button>
          </form>
        </div>
      </section>
    </aside>
  );
}
