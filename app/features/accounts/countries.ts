/**
 * The billing country as an ISO 3166-1 alpha-2 code (issue 37, item 12; ADR 0504): the codes are every
 * two-letter region the engine names in English (`Intl.DisplayNames`), less the ones that are not
 * countries (the EU, the UN, "Unknown Region", codes withdrawn from ISO 3166), Kosovo's XK kept. Names
 * come from the same engine, so no table is written by hand; the server builds the list and hands it to
 * the page as data (a browser's engine may name a country otherwise). `countryCodeFor` reads what
 * clients typed before the list (a name or a code, any case, accents aside).
 */

/** Two-letter regions the engine names that are not ISO 3166-1 countries (or are withdrawn codes). */
const NOT_COUNTRIES = new Set(
  "AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ".split(" "),
);

/** What people write for a country that is neither its code nor its English name. */
const ALIASES: Readonly<Record<string, string>> = {
  uk: "GB",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  usa: "US",
  "u.s.a.": "US",
  "u.s.": "US",
  "united states of america": "US",
  america: "US",
};

const key = (text: string) =>
  text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

let built: { names: Map<string, string>; byKey: Map<string, string> } | null = null;

function countries() {
  if (built) return built;
  const english = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const names = new Map<string, string>();
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = english.of(code);
      if (name && name !== code && !NOT_COUNTRIES.has(code)) names.set(code, name);
    }
  const byKey = new Map<string, string>();
  for (const [code, name] of names) {
    byKey.set(key(code), code);
    byKey.set(key(name), code);
    // "Myanmar (Burma)", "Congo - Kinshasa": the name before its qualifier too, unless two share it.
    const short = key(name.replace(/\s*(\(.*\)|-.*)$/, ""));
    if (short && !byKey.has(short)) byKey.set(short, code);
  }
  for (const [alias, code] of Object.entries(ALIASES)) byKey.set(alias, code);
  built = { names, byKey };
  return built;
}

/** Whether a code is one of the list's. */
export const isCountryCode = (value: unknown): value is string =>
  typeof value === "string" && countries().names.has(value);

/** A code's English name ("DE" → "Germany"); null for none or one not on the list. */
export const countryName = (code: string | null | undefined): string | null =>
  code ? (countries().names.get(code) ?? null) : null;

/** The code a typed country names ("United Kingdom", "uk", "GB" → "GB"); null when it names none. */
export function countryCodeFor(text: string | null | undefined): string | null {
  if (!text) return null;
  return countries().byKey.get(key(text)) ?? null;
}

/** The list as the profile's select shows it, by name. */
export function countryChoices(): Array<{ code: string; name: string }> {
  return [...countries().names.entries()]
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}
