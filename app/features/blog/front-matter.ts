/**
 * A tiny front-matter reader for the blog's Markdown files: a leading `---` block of `key: value`
 * lines (values optionally double-quoted), then the body. The articles need nothing more, so a YAML
 * parser would only add weight and surprises.
 */
export interface FrontMatterDocument {
  attributes: Record<string, string>;
  body: string;
}

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parseFrontMatter(source: string): FrontMatterDocument {
  const match = BLOCK.exec(source);
  if (!match) return { attributes: {}, body: source };
  const attributes: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`Invalid front-matter line: ${line}`);
    const key = line.slice(0, colon).trim();
    let value = line.slice(colon + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = JSON.parse(value) as string;
    }
    attributes[key] = value;
  }
  return { attributes, body: source.slice(match[0].length) };
}
