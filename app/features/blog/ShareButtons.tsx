import { useState } from "react";
import { Icon } from "~/ui/icon";

/** Share links for the common networks, built for an absolute article URL. Pure. */
export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: "X (Twitter)", href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: "Email", href: `mailto:?subject=${t}&body=${u}` },
  ];
}

export function ShareButtons({ url, title }: { url: string; title: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-600">Share this article</h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        <li>
          <button
            type="button"
            onClick={copy}
            className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
          >
            {copied === "copied" ? (
              <Icon name="check" className="size-4" />
            ) : (
              <Icon name="link-2" className="size-4" />
            )}
            Copy Link
          </button>
        </li>
        {shareLinks(url, title).map((l) => (
          <li key={l.name}>
            <a
              href={l.href}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-block rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
            >
              {l.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-600">
        {copied === "copied" ? "Link copied!" : copied === "failed" ? `Copy this link: ${url}` : ""}
      </p>
    </div>
  );
}
