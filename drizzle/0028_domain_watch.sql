CREATE TABLE "domain_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"family" text NOT NULL,
	"code" text NOT NULL,
	"threshold_key" text,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"fix" text NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"cleared_note" text
);
--> statement-breakpoint
CREATE TABLE "domain_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"verdict" text NOT NULL,
	"trigger" text NOT NULL,
	"report" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watched_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"dkim_selectors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"typed_expiry" date,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_verdict" text,
	"last_days_left" integer,
	"last_report" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "from_domain_alert_id" uuid;--> statement-breakpoint
ALTER TABLE "domain_alerts" ADD CONSTRAINT "domain_alerts_domain_id_watched_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."watched_domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_alerts" ADD CONSTRAINT "domain_alerts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_checks" ADD CONSTRAINT "domain_checks_domain_id_watched_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."watched_domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watched_domains" ADD CONSTRAINT "watched_domains_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_alerts_threshold_key" ON "domain_alerts" USING btree ("domain_id","threshold_key");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_alerts_open_family_key" ON "domain_alerts" USING btree ("domain_id","family") WHERE "domain_alerts"."cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX "domain_alerts_client_idx" ON "domain_alerts" USING btree ("client_id","raised_at");--> statement-breakpoint
CREATE INDEX "domain_checks_domain_checked_idx" ON "domain_checks" USING btree ("domain_id","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "watched_domains_client_name_key" ON "watched_domains" USING btree ("client_id","name");--> statement-breakpoint
CREATE INDEX "watched_domains_next_check_idx" ON "watched_domains" USING btree ("next_check_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_from_domain_alert_id_domain_alerts_id_fk" FOREIGN KEY ("from_domain_alert_id") REFERENCES "public"."domain_alerts"("id") ON DELETE set null ON UPDATE no action;