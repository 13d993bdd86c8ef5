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
  /** The default package's other features, behind "+2 more features" (which opens to show them). */
  moreFeatures: readonly string[];
  /** The packages offered, in order, each with its USD price. */
  packages: ReadonlyArray<{ key: string; name: string; priceUsd: number }>;
  /**
   * The day the service was added, in the client's zone ("Mar 5, 2026"); null for the services added on
   * the catalogue's first day (issue 37, item 13: the seeded catalogue's one day, repeated on every card,
   * told the client nothing; a later service's day tells them what is new).
   */
  added: string | null;
}

/** Features a card lists before "+N more features". */
export const FEATURES_SHOWN = 3;

/**
 * The services' cards, their days written in `timeZone` (the client's, which the page's dates are in);
 * a service added on the same day as the first ones shows no day.
 */
export function serviceCards(services: readonly Service[], timeZone: TimeZone): ServiceCard[] {
  const day = (s: Service) => formatDate(s.createdAt, "medium", timeZone);
  const first = services.reduce<Service | null>((a, s) => (!a || s.createdAt < a.createdAt ? s : a), null);
  const launchDay = first ? day(first) : null;
  return services.map((s) => {
    const added = day(s);
    return { ...serviceCard(s), added: added === launchDay ? null : added };
  });
}

function serviceCard(s: Service): Omit<ServiceCard, "added"> {
  const features = s.features[defaultPackage(s)] ?? [];
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    category: s.category,
    features: features.slice(0, FEATURES_SHOWN),
    moreFeatures: features.slice(FEATURES_SHOWN),
    packages: offeredPackages(s).map(({ key, name, priceUsd }) => ({ key, name, priceUsd })),
  };
}
