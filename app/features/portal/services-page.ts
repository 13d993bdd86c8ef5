/** The portal's Purchase Services page: each active service as a card, shaped by the server. */
import type { Service } from "~/db/schema";
import { defaultPackage, offeredPackages } from "~/features/catalogue/catalogue";

export interface ServiceCard {
  id: string;
  name: string;
  description: string;
  category: string;
  /** The default package's features (the card lists the first few). */
  features: readonly string[];
  /** The packages offered, in order, each with its USD price. */
  packages: ReadonlyArray<{ key: string; name: string; priceUsd: number }>;
  /** ISO time the service was added. */
  createdAt: string;
}

export function serviceCard(s: Service): ServiceCard {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    category: s.category,
    features: s.features[defaultPackage(s)] ?? [],
    packages: offeredPackages(s).map(({ key, name, priceUsd }) => ({ key, name, priceUsd })),
    createdAt: s.createdAt.toISOString(),
  };
}
