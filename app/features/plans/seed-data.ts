/**
 * The care plans as first seeded (issue 38, ADR 0530). Ids are fixed so seeding is idempotent: a plan
 * already present is left as the owner made it (db/seed.server.ts).
 */
import type { NewCarePlan } from "~/db/schema";

export const SEED_PLANS: NewCarePlan[] = [
  {
    id: "6f1d3c52-8a47-4e0b-9d2f-1b7c5e9a0c41",
    slug: "care-essentials",
    name: "Care Essentials",
    description:
      "The basics kept in order for a small office: one domain's certificates and mail security watched, a monthly check, and a support incident when something breaks.",
    included: [
      "Monthly maintenance check of your email, DNS and website hosting",
      "SSL certificate expiry watch with renewal before it lapses",
      "SPF, DKIM and DMARC watch with a fix when a record breaks",
      "Monthly backup verification (a test restore of one file)",
      "Support by email, answered within 24 hours",
    ],
    monthlyPriceUsd: 49,
    yearlyPriceUsd: 490,
    incidentAllowance: 1,
    watchedDomains: 1,
    sortOrder: 1,
  },
  {
    id: "a3e8b9d4-2c61-4f7a-8e15-7d0f6b2c9e58",
    slug: "care-plus",
    name: "Care Plus",
    description:
      "For a business that cannot afford a day without email: several domains watched, priority response, and three support incidents each period.",
    included: [
      "Everything in Care Essentials",
      "Weekly maintenance check and a monthly written report",
      "SSL, SPF, DKIM and DMARC watch across up to five domains",
      "DMARC report review and blocklist monitoring",
      "Weekly backup verification with a quarterly full restore test",
      "Priority response within 4 business hours",
    ],
    monthlyPriceUsd: 129,
    yearlyPriceUsd: 1290,
    incidentAllowance: 3,
    watchedDomains: 5,
    sortOrder: 2,
  },
];
