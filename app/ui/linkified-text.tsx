import { Fragment } from "react";
import { linkify } from "./linkify";

/**
 * Text with its http(s) addresses as links that open in a new tab, tell the target nothing about this
 * page (`noopener noreferrer`) and lend it no ranking (`nofollow`). Everything is rendered as text nodes
 * and `<a>` elements: nothing is ever parsed as HTML.
 */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.kind === "link" ? (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered.
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-brand-700 underline"
          >
            {part.text}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
