/**
 * Reads one service page's copy file (content/services/<slug>.md, described in
 * content/services/README.md): front matter for the SEO description and the tagline, then one
 * `## Title {#id}` block per part of the page, in the page's order. The result is checked by a zod
 * schema; anything wrong stops the server at start (and the tests) with the file, the line or the
 * part of the page, and what was expected. Pure: no I/O and no React; only the server reads the files.
 */
import { z } from "zod";
import { parseFrontMatter } from "~/features/blog/front-matter";
import type { ServicePageContent } from "./page-content";

/** The parts a page has, or may have, after its own sections, in the order the page shows them. */
const FIXED_BLOCKS = ["panel", "process", "pricing", "faq", "closing"] as const;
type FixedBlock = (typeof FIXED_BLOCKS)[number];
const isFixed = (id: string): id is FixedBlock => (FIXED_BLOCKS as readonly string[]).includes(id);
/** The page's fixed headings use these ids (`<id>-heading`), so no section of its own may. */
const TAKEN_IDS = new Set<string>([...FIXED_BLOCKS, "cta"]);

const BLOCK_HEADING = /^##\s+(.*?)\s*(?:\{([^}]*)\})?$/;
const QUESTION = /^###\s+(.*)$/;
const ATTRIBUTES = /^#([a-z0-9-]+)((?:\s+\.[a-z-]+)*)$/;
const LIST_ITEM = /^(?:[-*]|\d+\.)\s+(.*)$/;
const TITLED = /^\*\*(.+?)\*\*\s*:\s*(.*)$|^\*\*(.+?):\*\*\s*(.*)$/;

export class ServiceContentError extends Error {
  override name = "ServiceContentError";
}

// ---- What a page's copy must hold once read. -------------------------------------------------------

const text = z
  .string({ error: (issue) => (issue.input === undefined ? "is missing" : undefined) })
  .trim()
  .min(1, "is empty")
  .refine((t) => !/\$\s?\d/.test(t), {
    message: "writes a price: name it {price.<package>} or {addon.<addon>} so that it follows the catalogue",
  })
  .refine((t) => !/\*\*|\]\(/.test(t), {
    message: "is shown as plain text: bold and links are not rendered",
  });

const item = z.object({ title: text, text });

/** A check that no two entries of a list share a key (the page tells them apart by it). */
function distinct<T>(key: (value: T) => string, what: string) {
  return (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    for (const value of list.map(key)) {
      if (seen.has(value)) ctx.addIssue({ code: "custom", message: `has two ${what} "${value}"` });
      seen.add(value);
    }
  };
}

const needsBlock = (id: string, example: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined ? `the page needs a "## ${example} {#${id}}" block` : undefined,
});

const section = z.object({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, "must start with a letter")
    .refine((id) => !TAKEN_IDS.has(id), { message: "is taken by a fixed part of the page" }),
  title: text,
  intro: text.optional(),
  items: z
    .array(item)
    .min(1, "needs at least one '- **Title**: text' item")
    .superRefine(distinct<{ title: string }>((i) => i.title, "items titled")),
  style: z.enum(["cards", "list"]).optional(),
});

export const servicePageSchema = z.strictObject({
  description: text,
  tagline: text,
  sections: z
    .array(section)
    .min(1, "the page needs at least one section of its own before its process")
    .superRefine(distinct<{ id: string }>((s) => s.id, "sections with the id")),
  panel: z
    .object({ title: text, text, points: z.array(text).min(1, "needs at least one '- point'") })
    .optional(),
  process: z.object(
    {
      title: text,
      steps: z
        .array(item)
        .min(1, "needs at least one '1. **Step**: text'")
        .superRefine(distinct<{ title: string }>((s) => s.title, "steps titled")),
    },
    needsBlock("process", "Our Process"),
  ),
  pricing: z.object({ title: text, note: text.optional() }).optional(),
  faq: z.object(
    {
      title: text,
      entries: z
        .array(z.object({ question: text, answer: text }))
        .min(1, "needs at least one '### Question' with its answer")
        .superRefine(distinct<{ question: string }>((e) => e.question, "questions")),
    },
    needsBlock("faq", "Frequently Asked Questions"),
  ),
  closing: z.object({ title: text, text }, needsBlock("closing", "Ready to start?")),
}) satisfies z.ZodType<ServicePageContent>;

// ---- From Markdown blocks to that shape. -----------------------------------------------------------

/** A paragraph (its lines joined), a list item, or a `### ` question, with the line it starts on. */
interface Element {
  kind: "paragraph" | "item" | "question";
  line: number;
  text: string;
}

interface Block {
  line: number;
  id: string;
  title: string;
  classes: string[];
  elements: Element[];
}

type Fail = (line: number | null, message: string) => never;

export function parseServicePage(file: string, source: string): ServicePageContent {
  const fail: Fail = (line, message) => {
    throw new ServiceContentError(`${file}${line === null ? "" : `:${line}`}: ${message}`);
  };
  let front: ReturnType<typeof parseFrontMatter>;
  try {
    front = parseFrontMatter(source);
  } catch (error) {
    return fail(null, (error as Error).message);
  }
  const firstLine = source.slice(0, source.length - front.body.length).split("\n").length;
  // HTML comments are notes for whoever edits the file: blanked out, keeping the line numbers.
  const body = front.body.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ""));
  const blocks = readBlocks(body.split(/\r?\n/), firstLine, fail);
  const parsed = servicePageSchema.safeParse(assemble(front.attributes, blocks, fail));
  if (!parsed.success) {
    fail(null, parsed.error.issues.map((i) => `${partName(i.path, blocks)}: ${i.message}`).join("; "));
  }
  return parsed.data!;
}

function readBlocks(lines: string[], firstLine: number, fail: Fail): Block[] {
  const blocks: Block[] = [];
  let block: Block | null = null;
  /** The element a following line continues (Markdown joins the lines of a paragraph or an item). */
  let open: Element | null = null;
  for (const [index, raw] of lines.entries()) {
    const line = firstLine + index;
    const trimmed = raw.trim();
    if (!trimmed) {
      open = null;
      continue;
    }
    const question = QUESTION.exec(trimmed);
    if (trimmed.startsWith("#") && !question) {
      const heading = BLOCK_HEADING.exec(trimmed);
      if (!heading)
        fail(line, 'a heading is "## Title {#id}" (a part of the page) or "### Question" (in the FAQ)');
      const attributes = ATTRIBUTES.exec((heading![2] ?? "").trim());
      if (!attributes)
        fail(line, `"${trimmed}" needs an id after its title, as in "## Benefits {#benefits}"`);
      const classes = attributes![2]!.split(/\s+/).filter(Boolean);
      block = { line, id: attributes![1]!, title: heading![1]!, classes, elements: [] };
      blocks.push(block);
      open = null;
      continue;
    }
    if (!block) fail(line, 'text before the first "## Title {#id}" block');
    if (question) {
      block.elements.push({ kind: "question", line, text: question[1]!.trim() });
      open = null;
      continue;
    }
    const listed = LIST_ITEM.exec(trimmed);
    if (listed) {
      open = { kind: "item", line, text: listed[1]!.trim() };
      block.elements.push(open);
    } else if (open) {
      open.text = `${open.text} ${trimmed}`;
    } else {
      open = { kind: "paragraph", line, text: trimmed };
      block.elements.push(open);
    }
  }
  return blocks;
}

function assemble(frontMatter: Record<string, string>, blocks: Block[], fail: Fail) {
  const page: Record<string, unknown> = { ...frontMatter, sections: [] };
  let rank = -1;
  for (const block of blocks) {
    const fixed = isFixed(block.id);
    const blockRank = fixed ? FIXED_BLOCKS.indexOf(block.id as FixedBlock) : -1;
    if (fixed && page[block.id] !== undefined) fail(block.line, `a second {#${block.id}} block`);
    if (blockRank < rank) {
      const order = FIXED_BLOCKS.map((b) => `{#${b}}`).join(", ");
      fail(block.line, `{#${block.id}} is out of place: the page shows its own sections, then ${order}`);
    }
    rank = blockRank;
    const unknown = block.classes.filter((c) => c !== ".list" || fixed);
    if (unknown.length) fail(block.line, `unknown ${unknown.join(" ")} (only a section may be ".list")`);
    if (fixed) page[block.id] = READERS[block.id as FixedBlock](block, fail);
    else (page.sections as unknown[]).push(readSection(block, fail));
  }
  return page;
}

type Reader = (block: Block, fail: Fail) => Record<string, unknown>;

/** The block's paragraphs and items, once its elements are known to follow `kinds` in that order. */
function elementsOf(block: Block, fail: Fail, kinds: Array<Element["kind"]>, expected: string) {
  let last = 0;
  for (const element of block.elements) {
    const at = kinds.indexOf(element.kind);
    if (at < last) fail(element.line, `{#${block.id}} holds ${expected}`);
    last = at;
  }
  const paragraphs = block.elements.filter((e) => e.kind === "paragraph");
  if (paragraphs.length > 1) fail(paragraphs[1]!.line, `{#${block.id}} has one paragraph of text, not more`);
  return { paragraph: paragraphs[0]?.text, items: block.elements.filter((e) => e.kind === "item") };
}

function titled(element: Element, fail: Fail): { title: string; text: string } {
  const match = TITLED.exec(element.text);
  if (!match) return fail(element.line, 'an item here reads "- **Title**: text"');
  return { title: (match[1] ?? match[3])!.trim(), text: (match[2] ?? match[4])!.trim() };
}

/** Leaves out what the file does not have, rather than carrying `undefined` to the page. */
const present = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

function readSection(block: Block, fail: Fail) {
  const expected = "an intro paragraph (optional), then '- **Title**: text' items";
  const { paragraph, items } = elementsOf(block, fail, ["paragraph", "item"], expected);
  return present({
    id: block.id,
    title: block.title,
    intro: paragraph,
    items: items.map((i) => titled(i, fail)),
    style: block.classes.includes(".list") ? "list" : undefined,
  });
}

const READERS: Record<FixedBlock, Reader> = {
  panel(block, fail) {
    const { paragraph, items } = elementsOf(
      block,
      fail,
      ["paragraph", "item"],
      "a paragraph, then '- point' lines",
    );
    return present({ title: block.title, text: paragraph, points: items.map((i) => i.text) });
  },
  process(block, fail) {
    const { items } = elementsOf(block, fail, ["item"], "numbered steps, '1. **Step**: text'");
    return { title: block.title, steps: items.map((i) => titled(i, fail)) };
  },
  pricing(block, fail) {
    const { paragraph } = elementsOf(
      block,
      fail,
      ["paragraph"],
      "at most one paragraph, shown above the prices",
    );
    return present({ title: block.title, note: paragraph });
  },
  faq(block, fail) {
    const entries: Array<{ question: string; answer?: string }> = [];
    for (const element of block.elements) {
      const last = entries.at(-1);
      if (element.kind === "question") entries.push({ question: element.text });
      else if (element.kind === "paragraph" && last && last.answer === undefined) last.answer = element.text;
      else
        fail(element.line, "{#faq} holds '### Question' lines, each followed by one paragraph: its answer");
    }
    return { title: block.title, entries };
  },
  closing(block, fail) {
    const { paragraph } = elementsOf(block, fail, ["paragraph"], "one paragraph");
    return present({ title: block.title, text: paragraph });
  },
};

/** A schema path in the file's words: `"## FAQ {#faq}" (line 40) › entries › #2 › answer`. */
function partName(path: PropertyKey[], blocks: Block[]): string {
  const [first, ...rest] = path;
  if (first === undefined) return "front matter";
  const named = (block: Block | undefined, fallback: string) =>
    block ? `"## ${block.title} {#${block.id}}" (line ${block.line})` : fallback;
  let head: string;
  if (first === "sections" && typeof rest[0] === "number") {
    const index = rest.shift() as number;
    head = named(blocks.filter((b) => !isFixed(b.id))[index], `section #${index + 1}`);
  } else if (first === "sections") {
    head = "the page's own sections";
  } else if (isFixed(String(first))) {
    head = named(
      blocks.find((b) => b.id === first),
      `{#${String(first)}}`,
    );
  } else {
    head = `front matter "${String(first)}"`;
  }
  return [head, ...rest.map((p) => (typeof p === "number" ? `#${p + 1}` : String(p)))].join(" › ");
}
