ALTER TABLE "clients" ADD COLUMN "deleted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "erase_when_sent" boolean DEFAULT false NOT NULL;
