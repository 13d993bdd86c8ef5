import { readFileSync } from "node:fs";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Icon } from "./icon";
import { ICON_NAMES } from "./icon-names";
import { iconSprite } from "./icon-sprite.server";

describe("the icon sprite", () => {
  it("is current: the committed icons.svg is what scripts/icon-sprite.ts makes from lucide-react", async () => {
    const committed = readFileSync(new URL("./icons.svg", import.meta.url), "utf8");
    expect(committed).toBe(await iconSprite());
  });

  it("holds each named icon once, as shapes only (the stroke comes from the page's .icon rule)", async () => {
    const sprite = await iconSprite();
    for (const name of ICON_NAMES) {
      expect(sprite.split(`<symbol id="${name}" viewBox="0 0 24 24">`), name).toHaveLength(2);
    }
    expect(sprite).not.toMatch(/stroke|fill|class=/);
  });
});

describe("Icon", () => {
  it("is one <svg><use/></svg> of about 100 bytes, hidden from assistive technology", () => {
    const html = renderToString(<Icon name="star" className="size-4" />);
    expect(html).toMatch(
      /^<svg class="icon size-4" aria-hidden="true"><use href="[^"]+#star"><\/use><\/svg>$/,
    );
    // The sprite's URL in a test is the source path; in the build it is /assets/icons-<hash>.svg.
    const built = html.replace(/href="[^"#]+#/, 'href="/assets/icons-CxIfMnfC.svg#');
    expect(built.length).toBeLessThanOrEqual(110);
  });

  it("names itself when it carries the meaning alone", () => {
    const html = renderToString(<Icon name="lock" label="Secure payment" />);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="Secure payment"');
    expect(html).not.toContain("aria-hidden");
  });
});
