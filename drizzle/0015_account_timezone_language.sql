ALTER TABLE "clients" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "language" text;