/** The portal's Purchase Services page: each active service as a card, shaped by the server. */
import type { Service } from "~/db/schema";
import { defaultPackage, offeredPackages } from "~/features/catalogue/catalogue";
import { formatDate, type TimeZone } from "~/ui/format";

export interface ServiceCard {
  id: string;
  name: string;
  description: string;
  category: string;
  /** The first FEATURES_SHOWN of the default package's features: what the card lists. */
  features: readonly string[];
  /** How many more features the default package has ("+2 more features"). */
  moreFeatures: number;
  /** The packages offered, in order, each with its USD price. */
  packages: ReadonlyArray<{ key: string; name: string; priceUsd: number }>;
  /** The day the service was added, in the client's zone ("Mar 5, 2026"). */
  added: string;
}

/** Features a card lists; only these go into the page's data (docs/decisions/0821-fewer-bytes-icon-sprite.md). */
export const FEATURES_SHOWN = 3;

/** A service's card, its day written in `timeZone` (the client's, which the page's dates are in). */
export function serviceCard(s: Service, timeZone: TimeZone): ServiceCard {
  const features = s.features[defaultPackage(s)] ?? [];
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    category: s.category,
    features: features.slice(0, FEATURES_SHOWN),
    moreFeatures: Math.max(0, features.length - FEATURES_SHOWN),
    packages: offeredPackages(s).map(({ key, name, priceUsd }) => ({ key, name, priceUsd })),
    added: formatDate(s.createdAt, "medium", timeZone),
  };
}
