-- Care plans (issue 38, item 1; ADR 0530): services that renew monthly or yearly, priced in USD like the
-- services, with at least one price, and an incident allowance and watched domains that are never negative.
-- Seeded with two plans by the app (features/plans/seed-data.ts).
CREATE TABLE "care_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"included" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"monthly_price_usd" numeric(14, 2),
	"yearly_price_usd" numeric(14, 2),
	"incident_allowance" integer DEFAULT 0 NOT NULL,
	"watched_domains" integer DEFAULT 0 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_plans_slug_unique" UNIQUE("slug"),
	CONSTRAINT "care_plans_has_price" CHECK ("care_plans"."monthly_price_usd" IS NOT NULL OR "care_plans"."yearly_price_usd" IS NOT NULL),
	CONSTRAINT "care_plans_prices_positive" CHECK (("care_plans"."monthly_price_usd" IS NULL OR "care_plans"."monthly_price_usd" > 0) AND ("care_plans"."yearly_price_usd" IS NULL OR "care_plans"."yearly_price_usd" > 0)),
	CONSTRAINT "care_plans_allowance" CHECK ("care_plans"."incident_allowance" >= 0 AND "care_plans"."watched_domains" >= 0)
);
