ALTER TABLE "clients" ADD COLUMN "vat_status" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "vat_checked_number" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "vat_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "vat_request_id" text;