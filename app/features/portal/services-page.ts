/** The portal's Purchase Services page: each active service as a card, shaped by the server. */
import type { Service } from "~/db/schema";
import { defaultPackage } from "~/features/catalogue/catalogue";

export interface ServiceCard {
  id: string;
  name: string;
  description: string;
  category: string;
  pricing: Record<string, number>;
  /** The default package's features (the card lists the first few). */
  features: readonly string[];
  packages: ReadonlyArray<{ key: string; name: string }>;
  /** ISO time the service was added. */
  createdAt: string;
}

export function serviceCard(s: Service): ServiceCard {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    category: s.category,
    pricing: s.pricing,
    features: s.features[defaultPackage(s)] ?? [],
    packages: s.packageOrder
      .filter((p) => p in s.pricing)
      .map((p) => ({ key: p, name: s.packageNames[p] ?? p })),
    createdAt: s.createdAt.toISOString(),
  };
}
