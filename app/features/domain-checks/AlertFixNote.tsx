/** Above a purchase made from a domain alert (issue 39, item 4): what it fixes, and where the details go. */
export function AlertFixNote({ alert }: { alert: { title: string; message: string; domain: string } }) {
  return (
    <section
      aria-label="What this order fixes"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-slate-800"
    >
      <p className="font-semibold">{`For ${alert.domain}: ${alert.title}`}</p>
      <p className="mt-1 text-sm">
        {alert.message} Once paid, the order's brief starts filled in with the domain and what our check
        found.
      </p>
    </section>
  );
}
