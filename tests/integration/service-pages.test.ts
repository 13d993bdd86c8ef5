/**
 * The eight service pages through the real handler, from their copy files (content/services/*.md,
 * bundled into the build): every part of every file is on its page, in the file's order, with the
 * prices filled from the catalogue, and a page without a {#pricing} block shows no prices.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { listServices } from "~/features/catalogue/catalogue.server";
import { serviceContent } from "~/features/services/content.server";
import { priceCopy } from "~/features/services/page-content";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** The text of the `<section>` a heading id labels, tags removed. */
function sectionText(html: string, headingId: string): string {
  const start = html.indexOf(`<section aria-labelledby="${headingId}"`);
  if (start === -1) throw new Error(`no section labelled by #${headingId}`);
  const end = html.indexOf("</section>", start);
  return text(html.slice(start, end).replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
}

const words = (s: string) => s.replace(/\s+/g, " ");

describe.each(testDatabases)("service pages on $name", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(SERVICE_PAGES.map((p) => p.slug))("/services/%s renders every part of its file", async (slug) => {
    const service = (await listServices(server.portico.runtime.database.db)).find((s) => s.slug === slug)!;
    const content = priceCopy(serviceContent()[slug], service);
    const res = await server.get(`/services/${slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(/\{(price|addon)\./);
    expect(text(html)).toContain(`<meta name="description" content="${content.description}"/>`);
    expect(text(html)).toContain(content.tagline);

    const labels: string[] = [];
    const expectSection = (headingId: string, ...texts: string[]) => {
      const shown = sectionText(html, headingId);
      for (const t of texts) expect(shown, `#${headingId} of ${slug}`).toContain(words(t));
      labels.push(headingId);
    };
    for (const s of content.sections) {
      expectSection(`${s.id}-heading`, s.title, s.intro ?? "", ...s.items.flatMap((i) => [i.title, i.text]));
    }
    if (content.panel)
      expectSection("panel-heading", content.panel.title, content.panel.text, ...content.panel.points);
    expectSection(
      "process-heading",
      content.process.title,
      ...content.process.steps.flatMap((s) => [s.title, s.text]),
    );
    if (content.pricing) {
      expectSection("pricing-heading", content.pricing.title, content.pricing.note ?? "");
      expect(sectionText(html, "pricing-heading")).toContain("Order Now");
    } else {
      expect(html).not.toContain('aria-labelledby="pricing-heading"');
      expect(html).not.toContain("data-price-usd");
    }
    expectSection(
      "faq-heading",
      content.faq.title,
      ...content.faq.entries.flatMap((e) => [e.question, e.answer]),
    );
    expectSection("cta-heading", content.closing.title, content.closing.text);

    // In the file's order.
    const at = labels.map((id) => html.indexOf(`aria-labelledby="${id}"`));
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });
});
