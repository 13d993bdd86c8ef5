/**
 * Builds the icon sprite (`app/ui/icons.svg`) from lucide-react's drawings: one `<symbol>` per name in
 * ICON_NAMES, holding the icon's shapes and nothing else. How the icons are stroked (width, caps,
 * colour) is the `.icon` rule in app.css, set on the `<svg>` that uses a symbol, so a page can still
 * fill or recolour an icon with a class. Not part of any bundle: `scripts/icon-sprite.ts` writes the
 * file and `icon.test.ts` checks the committed one is current.
 */
import { ICON_NAMES } from "./icon-names";

type IconNode = [tag: string, attributes: Record<string, string | number>][];

const escapeAttribute = (value: string | number) =>
  String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function symbolFor(name: string, node: IconNode): string {
  const shapes = node
    .map(([tag, attributes]) => {
      const attrs = Object.entries(attributes)
        .filter(([key]) => key !== "key")
        .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
        .join("");
      return `<${tag}${attrs}/>`;
    })
    .join("");
  return `<symbol id="${name}" viewBox="0 0 24 24">${shapes}</symbol>`;
}

export async function iconSprite(): Promise<string> {
  const symbols: string[] = [];
  for (const name of ICON_NAMES) {
    const module = (await import(`lucide-react/icons/${name}`)) as { __iconData: { node: IconNode } };
    symbols.push(symbolFor(name, module.__iconData.node));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true">\n${symbols.join("\n")}\n</svg>\n`;
}
