-- The checkout an invoice is being paid through, kept on the invoice (ADR 0503, amended 2026-11-25), so
-- the sweep and the return check find a quote's balance checkout too. No backfill: a pending order's
-- checkout made before this is still found through orders.provider_reference, as before; a balance
-- checkout made before this was kept nowhere.
ALTER TABLE "invoices" ADD COLUMN "checkout_provider" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_reference" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "checkout_checked_at" timestamp with time zone;