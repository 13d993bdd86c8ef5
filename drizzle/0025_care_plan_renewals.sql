CREATE TABLE "plan_charge_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"period_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"code" text,
	"decline_code" text,
	"advice_code" text,
	"message" text,
	"payment_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_charge_attempts_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "plan_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"period_index" integer NOT NULL,
	"cycle" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"order_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"incidents_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_periods_dates" CHECK ("plan_periods"."starts_on" < "plan_periods"."ends_on")
);
--> statement-breakpoint
CREATE TABLE "plan_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"plan_id" uuid NOT NULL,
	"plan_name" text NOT NULL,
	"cycle" text NOT NULL,
	"price_usd" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"incident_allowance" integer DEFAULT 0 NOT NULL,
	"anchor_day" date NOT NULL,
	"anchor_period_index" integer DEFAULT 0 NOT NULL,
	"next_period_index" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"cancel_reason" text,
	"next_cycle" text,
	"provider" text,
	"provider_customer_id" text,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" integer,
	"card_exp_year" integer,
	"past_due_since" timestamp with time zone,
	"suspended_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_subscriptions_price" CHECK ("plan_subscriptions"."price_usd" >= 0),
	CONSTRAINT "plan_subscriptions_currency" CHECK ("plan_subscriptions"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "plan_subscriptions_allowance" CHECK ("plan_subscriptions"."incident_allowance" >= 0),
	CONSTRAINT "plan_subscriptions_next_period" CHECK ("plan_subscriptions"."next_period_index" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sandbox_saved_cards" (
	"payment_method_id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"card" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_saved_cards_checkout_id_unique" UNIQUE("checkout_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "plan_subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "plan_charge_attempts" ADD CONSTRAINT "plan_charge_attempts_period_id_plan_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."plan_periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_subscription_id_plan_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."plan_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_periods" ADD CONSTRAINT "plan_periods_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_charge_attempts_period_attempt_key" ON "plan_charge_attempts" USING btree ("period_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_periods_subscription_index_key" ON "plan_periods" USING btree ("subscription_id","period_index");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_periods_order_key" ON "plan_periods" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "plan_subscriptions_client_idx" ON "plan_subscriptions" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "plan_subscriptions_status_idx" ON "plan_subscriptions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "orders_plan_subscription_idx" ON "orders" USING btree ("plan_subscription_id");