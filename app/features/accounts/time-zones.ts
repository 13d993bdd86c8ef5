/**
 * Every IANA timezone the profile offers (issue 37, item 12; ADR 0521): the engine's own list,
 * `Intl.supportedValuesOf("timeZone")`, with the names it still spells the old way (ICU keeps
 * "Asia/Calcutta", "Europe/Kiev") written as today's ("Asia/Kolkata", "Europe/Kyiv") where the engine
 * takes them. Grouped by region for the select's optgroups. The list is built by the server once and
 * handed to the page as data, so a browser whose engine knows other names renders the server's options.
 */

/** Names the engine lists in their old spelling, and today's. */
const RENAMED: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

function engineTakes(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let offered: { zones: string[]; known: Set<string> } | null = null;

/** The offered zones, sorted; `known` also holds the engine's old spellings (saved before, still read). */
function offeredZones() {
  if (offered) return offered;
  const raw = Intl.supportedValuesOf("timeZone");
  const zones = [
    ...new Set(raw.map((zone) => (RENAMED[zone] && engineTakes(RENAMED[zone]) ? RENAMED[zone] : zone))),
  ];
  // UTC is not a region's zone, but people working across zones choose it.
  if (engineTakes("UTC")) zones.push("UTC");
  zones.sort();
  offered = { zones, known: new Set([...zones, ...raw]) };
  return offered;
}

/** Whether the profile takes this timezone: one of the offered, or the engine's older name of one. */
export function isOfferedTimeZone(value: unknown): value is string {
  return typeof value === "string" && offeredZones().known.has(value);
}

export interface TimeZoneGroup {
  region: string;
  zones: Array<{ value: string; label: string }>;
}

let groups: TimeZoneGroup[] | null = null;

/** The offered zones by region ("Asia" › "Kathmandu"; "America" › "Argentina / Buenos Aires"). */
export function timeZoneGroups(): TimeZoneGroup[] {
  if (groups) return groups;
  const byRegion = new Map<string, TimeZoneGroup["zones"]>();
  for (const zone of offeredZones().zones) {
    const [region, ...place] = zone.split("/");
    const key = place.length ? region! : "Other";
    const label = (place.length ? place.join(" / ") : zone).replace(/_/g, " ");
    byRegion.set(key, [...(byRegion.get(key) ?? []), { value: zone, label }]);
  }
  groups = [...byRegion.entries()].map(([region, zones]) => ({ region, zones }));
  return groups;
}
