import { describe, expect, it } from "vitest";
import { loadServiceContent, serviceContent } from "./content.server";
import { parseServicePage } from "./content-file";

const FILE = "content/services/example.md";

const PAGE = `---
description: "Backups for {price.basic}, tested."
tagline: "Backups that come back."
---

<!-- A note for whoever edits this file. -->

## What You Get {#features}

Everything a small office needs,
on one plan.

- **Complete protection**: Files, mailboxes and
  whole machines.
- **Proven restores:** A test restore proves it.

## Setup Includes {#setup .list}

- **Agents**: Installed on every device.

## Emergency Support {#panel}

Site down?

- Response in 15 minutes

## Setup Timeline {#process}

1. **Basic setup**: 2-4 hours.
2. **Enterprise setup**: 1-2 business days.

## Pricing {#pricing}

## Frequently Asked Questions {#faq}

### How long does setup take?

2-4 hours.

### Will you test the backups?

Yes, every setup ends with a test restore.

## Protect your data today {#closing}

Order your backup setup.
`;

/** PAGE with one text replaced (the test's way of breaking one thing at a time). */
const broken = (from: string, to: string) => {
  if (!PAGE.includes(from)) throw new Error(`PAGE has no ${from}`);
  return PAGE.replace(from, to);
};
const errorOf = (source: string) => {
  try {
    parseServicePage(FILE, source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the file was accepted");
};

describe("a service page's copy file", () => {
  it("reads front matter, sections, panel, process, pricing, FAQ and closing in the page's shape", () => {
    expect(parseServicePage(FILE, PAGE)).toEqual({
      description: "Backups for {price.basic}, tested.",
      tagline: "Backups that come back.",
      sections: [
        {
          id: "features",
          title: "What You Get",
          intro: "Everything a small office needs, on one plan.",
          items: [
            { title: "Complete protection", text: "Files, mailboxes and whole machines." },
            { title: "Proven restores", text: "A test restore proves it." },
          ],
        },
        {
          id: "setup",
          title: "Setup Includes",
          style: "list",
          items: [{ title: "Agents", text: "Installed on every device." }],
        },
      ],
      panel: { title: "Emergency Support", text: "Site down?", points: ["Response in 15 minutes"] },
      process: {
        title: "Setup Timeline",
        steps: [
          { title: "Basic setup", text: "2-4 hours." },
          { title: "Enterprise setup", text: "1-2 business days." },
        ],
      },
      pricing: { title: "Pricing" },
      faq: {
        title: "Frequently Asked Questions",
        entries: [
          { question: "How long does setup take?", answer: "2-4 hours." },
          { question: "Will you test the backups?", answer: "Yes, every setup ends with a test restore." },
        ],
      },
      closing: { title: "Protect your data today", text: "Order your backup setup." },
    });
  });

  it("shows no price cards without a {#pricing} block", () => {
    expect(parseServicePage(FILE, broken("## Pricing {#pricing}\n", "")).pricing).toBeUndefined();
  });

  it("names the file and the front-matter field that is missing or unknown", () => {
    expect(errorOf(broken('tagline: "Backups that come back."\n', ""))).toBe(
      `${FILE}: front matter "tagline": is missing`,
    );
    expect(errorOf(broken("tagline:", "tagLine:"))).toMatch(
      new RegExp(`^${FILE}: .*front matter "tagline": is missing.*front matter: Unrecognized key: "tagLine"`),
    );
  });

  it("names the block, the entry and the field of an FAQ question without an answer", () => {
    expect(errorOf(broken("\n2-4 hours.\n", ""))).toBe(
      `${FILE}: "## Frequently Asked Questions {#faq}" (line 34) › entries › #1 › answer: is missing`,
    );
  });

  it("names the line of an item, a heading or a block it cannot read", () => {
    expect(errorOf(broken("- **Agents**: Installed", "- Agents: Installed"))).toBe(
      `${FILE}:19: an item here reads "- **Title**: text"`,
    );
    expect(errorOf(broken("## Setup Includes {#setup .list}", "## Setup Includes"))).toBe(
      `${FILE}:17: "## Setup Includes" needs an id after its title, as in "## Benefits {#benefits}"`,
    );
    expect(errorOf(broken("## What You Get {#features}", "# What You Get"))).toMatch(
      new RegExp(`^${FILE}:8: a heading is "## Title \\{#id\\}"`),
    );
    expect(errorOf(broken("## Pricing {#pricing}", "## Pricing {#pricing}\n\nOne.\n\nTwo."))).toBe(
      `${FILE}:36: {#pricing} has one paragraph of text, not more`,
    );
    expect(errorOf(broken("1. **Basic setup**", "Some text.\n\n1. **Basic setup**"))).toMatch(
      new RegExp(`^${FILE}:29: \\{#process\\} holds numbered steps`),
    );
  });

  it("refuses a missing closing, a misplaced block, a written price and a duplicate question", () => {
    expect(errorOf(broken("## Protect your data today {#closing}\n\nOrder your backup setup.\n", ""))).toBe(
      `${FILE}: {#closing}: the page needs a "## Ready to start? {#closing}" block`,
    );
    expect(
      errorOf(
        broken(
          "## Setup Includes {#setup .list}",
          "## Pricing {#pricing}\n\n## Setup Includes {#setup .list}",
        ),
      ),
    ).toMatch(new RegExp(`^${FILE}:19: \\{#setup\\} is out of place`));
    expect(errorOf(broken("2-4 hours.\n\n###", "It costs $40.\n\n###"))).toMatch(
      /answer: writes a price: name it \{price/,
    );
    expect(errorOf(broken("Will you test the backups?", "How long does setup take?"))).toMatch(
      /\{#faq\}" \(line 34\) › entries: has two questions "How long does setup take\?"/,
    );
  });
});

describe("the service pages' files", () => {
  it("give every service page its copy and refuse a file no page has", () => {
    expect(Object.keys(serviceContent())).toHaveLength(8);
    expect(() => loadServiceContent({ "../../../content/services/ssl.md": PAGE })).toThrow(
      /^content\/services\/ssl\.md: "ssl" is not a service page/,
    );
    expect(() => loadServiceContent({ "../../../content/services/ssl-setup.md": PAGE })).toThrow(
      /^Missing service page copy: content\/services\/email-migration\.md, .*per-incident-support\.md$/,
    );
  });
});
