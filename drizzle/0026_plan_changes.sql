ALTER TABLE "plan_subscriptions" ADD COLUMN "ends_on" date;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD COLUMN "card_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD COLUMN "card_setup_provider" text;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD COLUMN "card_setup_reference" text;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD COLUMN "next_price_usd" numeric(14, 2);