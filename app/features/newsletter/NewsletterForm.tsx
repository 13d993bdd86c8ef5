/**
 * The newsletter sign-up: a fetcher form (no page reload with JavaScript, a plain post without it)
 * to a page action that calls handleNewsletterForm. Its answer is announced politely.
 */
import { useId } from "react";
import { useActionData, useFetcher } from "react-router";
import { HoneypotField } from "~/features/security/HoneypotField";
import { Button } from "~/ui/button";
import { useHydrated } from "~/ui/use-hydrated";
import type { NewsletterResult } from "./newsletter";

function isNewsletterResult(value: unknown): value is NewsletterResult {
  return Boolean(value && typeof value === "object" && (value as { form?: unknown }).form === "newsletter");
}

export function NewsletterForm({ action = "/?index" }: { action?: string }) {
  const fetcher = useFetcher<NewsletterResult>();
  const fromPage = useActionData();
  const result = fetcher.data ?? (isNewsletterResult(fromPage) ? fromPage : undefined);
  const busy = fetcher.state !== "idle";
  // Marks the form once it is interactive (it sits in a lazily hydrated section of the home page).
  const hydrated = useHydrated();
  const id = useId();
  return (
    <fetcher.Form method="post" action={action} className="relative" data-hydrated={hydrated || undefined}>
      <input type="hidden" name="intent" value="newsletter" />
      <div className="flex flex-col gap-3 sm:flex-row">
        <label htmlFor={`${id}-email`} className="sr-only">
          Email address
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="Enter your email"
          defaultValue={result && !result.ok ? result.email : undefined}
          aria-invalid={result && !result.ok ? true : undefined}
          aria-describedby={`${id}-status`}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-ink"
        />
        <Button type="submit" disabled={busy}>
          {busy ? "Subscribing..." : "Subscribe"}
        </Button>
      </div>
      <HoneypotField id={`${id}-hp`} />
      <p
        id={`${id}-status`}
        role="status"
        aria-live="polite"
        className={`mt-3 text-sm ${result?.ok ? "text-green-800" : "text-red-700"}`}
      >
        {result?.ok ? result.message : result?.error}
      </p>
    </fetcher.Form>
  );
}
