/**
 * The HTML checker of the integration tests (docs/decisions/0107-valid-markup-check.md): html-validate,
 * run in this process on a page's server-rendered HTML, with only the rules that say what the HTML
 * standard says (what may contain what, which attributes and values an element takes, ids), none of its
 * style or accessibility opinions (axe checks accessibility in the browser suite).
 */
import { type ConfigData, HtmlValidate, type Message } from "html-validate";

/** The rules, each one the HTML standard's (the W3C Nu validator reports the same errors). */
const SPEC_RULES: ConfigData["rules"] = {
  // The document and its parsing.
  "doctype-html": "error",
  "missing-doctype": "error",
  "close-order": "error",
  "close-attr": "error",
  "void-content": "error",
  "no-dup-attr": "error",
  "unrecognized-char-ref": "error",
  // The content model: what an element may contain, in which order and how often, and where it may be.
  "element-permitted-content": "error",
  "element-permitted-occurrences": "error",
  "element-permitted-order": "error",
  "element-permitted-parent": "error",
  "element-required-ancestor": "error",
  "element-required-content": "error",
  "element-required-attributes": "error",
  "element-name": "error",
  "no-multiple-main": "error",
  deprecated: "error",
  // Attributes: allowed on that element (or input type), with a valid value; autocomplete tokens on the
  // controls that take them.
  "attribute-allowed-values": "error",
  "attribute-misuse": "error",
  "input-attributes": "error",
  "valid-autocomplete": "error",
  "no-deprecated-attr": "error",
  // Ids: unique, valid as the standard defines them (any string without spaces), and every id a
  // for/aria-* attribute names exists.
  "no-dup-id": "error",
  "valid-id": ["error", { relaxed: true }],
  "no-missing-references": "error",
  "map-dup-name": "error",
};

const validator = new HtmlValidate({ root: true, extends: [], rules: SPEC_RULES });

/** The standard's errors in a page: `line:column rule: message (selector)`, one per error; none when valid. */
export async function markupErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map(
      (m: Message) =>
        `${m.line}:${m.column} ${m.ruleId}: ${m.message}${m.selector ? ` (${m.selector})` : ""}`,
    ),
  );
}
