import { useId } from "react";

/**
 * The newsletter box under the blog teasers. The spec gives the Subscribe button no visible behaviour
 * and the email no validation (§2, §5), so this is presentational; the contact feature may pass an
 * `onSubscribe` (or wrap it in its own form) when it gives the box a behaviour.
 */
export function NewsletterBox({ onSubscribe }: { onSubscribe?: (email: string) => void }) {
  const inputId = useId();
  return (
    <div className="mt-14 rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      <h3 className="text-xl font-bold">Get IT tips in your inbox</h3>
      <p className="mt-2 text-slate-600">Practical guides on email, security and the cloud. No spam.</p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <label htmlFor={inputId} className="sr-only">
          Email address
        </label>
        <input
          id={inputId}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="Enter your email"
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-4 py-2"
        />
        <button
          type="button"
          onClick={(e) => {
            const input =
              e.currentTarget.form?.elements.namedItem("email") ?? document.getElementById(inputId);
            if (onSubscribe && input instanceof HTMLInputElement) onSubscribe(input.value);
          }}
          className="rounded-lg bg-brand-600 px-6 py-2 font-semibold text-white hover:bg-brand-700"
        >
          Subscribe
        </button>
      </div>
    </div>
  );
}
