import { NewsletterForm } from "~/features/newsletter/NewsletterForm";

/** The newsletter box under the blog teasers: stored, de-duplicated subscriptions (see NewsletterForm). */
export function NewsletterBox() {
  return (
    <div className="mt-14 rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      <h3 className="text-xl font-bold">Get IT tips in your inbox</h3>
      <p className="mt-2 text-slate-600">Practical guides on email, security and the cloud. No spam.</p>
      <div className="mt-6">
        <NewsletterForm />
      </div>
    </div>
  );
}
