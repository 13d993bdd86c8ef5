/**
 * Joins class names so that a later class wins over an earlier one of the same Tailwind group: a
 * caller's `text-base` replaces a primitive's `text-sm`, `p-6` replaces `px-4 py-2`, instead of both
 * landing in the class list where the stylesheet's order decides. It knows the groups this kit's
 * primitives expose for overriding (spacing, sizing, type, colours, borders, radius, layout); any other
 * class is kept as given. Why not tailwind-merge: docs/decisions/0104-ui-kit-primitives.md.
 */

const SIZES = "xs|sm|base|lg|xl|[2-9]xl";
const WEIGHTS = "thin|extralight|light|normal|medium|semibold|bold|extrabold|black";

/** Ordered rules: the first whose pattern matches names the group. */
const GROUPS: ReadonlyArray<[RegExp, string]> = [
  [/^(p|m)([xytrbl]?)-/, "$1$2"],
  [/^size-/, "size"],
  [/^(min-w|max-w|min-h|max-h|w|h)-/, "$1"],
  [new RegExp(`^text-(${SIZES})(\\/.*)?$`), "font-size"],
  [/^text-(left|center|right|justify|start|end)$/, "text-align"],
  [/^text-/, "text-color"],
  [new RegExp(`^font-(${WEIGHTS})$`), "font-weight"],
  [/^bg-(gradient|linear|radial|none)/, "bg-image"],
  [/^bg-/, "bg-color"],
  [/^border(-[0248])?$/, "border-w"],
  [/^border-([xytrbl])(-[0248])?$/, "border-w-$1"],
  [/^border-/, "border-color"],
  [/^rounded(-(none|xs|sm|md|lg|xl|[234]xl|full))?$/, "rounded"],
  [/^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents)$/, "display"],
  [/^(justify|items|gap-x|gap-y|gap|shadow|opacity|leading|tracking)(-|$)/, "$1"],
];

/** Groups a class of the key's group also overrides. */
const ALSO: Readonly<Record<string, readonly string[]>> = {
  p: ["px", "py", "pt", "pr", "pb", "pl"],
  px: ["pr", "pl"],
  py: ["pt", "pb"],
  m: ["mx", "my", "mt", "mr", "mb", "ml"],
  mx: ["mr", "ml"],
  my: ["mt", "mb"],
  size: ["w", "h"],
  gap: ["gap-x", "gap-y"],
};

function groupOf(base: string): string | null {
  for (const [pattern, group] of GROUPS) {
    const match = pattern.exec(base);
    if (match) return group.replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? "");
  }
  return null;
}

function groupKey(cls: string): { variants: string; group: string } | null {
  const parts = cls.split(":");
  const base = parts.pop()!.replace(/^!/, "").replace(/^-/, "");
  const group = groupOf(base);
  return group ? { variants: parts.sort().join(":"), group } : null;
}

/**
 * Answers by the joined input: a page asks for the same few hundred combinations on every render, and
 * working them out again was 4 % of a signed-in page's server time (ADR 0820). Bounded: emptied when full.
 */
const merged = new Map<string, string>();
const MERGED_KEPT = 2_000;

export function cn(...classes: Array<string | false | null | undefined>): string {
  const joined = classes.filter(Boolean).join(" ");
  let result = merged.get(joined);
  if (result === undefined) {
    result = merge(joined);
    if (merged.size >= MERGED_KEPT) merged.clear();
    merged.set(joined, result);
  }
  return result;
}

function merge(joined: string): string {
  const list = joined.split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i]!;
    const key = groupKey(cls);
    if (!key) {
      if (!kept.includes(cls)) kept.push(cls);
      continue;
    }
    const id = `${key.variants}|${key.group}`;
    if (taken.has(id)) continue;
    taken.add(id);
    for (const other of ALSO[key.group] ?? []) taken.add(`${key.variants}|${other}`);
    kept.push(cls);
  }
  return kept.reverse().join(" ");
}
