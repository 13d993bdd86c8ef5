ALTER TABLE "clients" ADD COLUMN "invoice_format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "invoice_email" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "buyer_reference" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "tax" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax" jsonb;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "tax" jsonb;--> statement-breakpoint
-- Issue 40: the VAT treatment is part of what was issued or sent (ADR 0504's and 0513's triggers).
CREATE OR REPLACE FUNCTION "invoices_frozen_when_issued"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."buyer" IS NOT NULL AND (
    NEW."buyer" IS DISTINCT FROM OLD."buyer"
    OR NEW."seller" IS DISTINCT FROM OLD."seller"
    OR NEW."invoice_number" IS DISTINCT FROM OLD."invoice_number"
    OR NEW."invoice_year" IS DISTINCT FROM OLD."invoice_year"
    OR NEW."invoice_seq" IS DISTINCT FROM OLD."invoice_seq"
    OR NEW."client_id" IS DISTINCT FROM OLD."client_id"
    OR NEW."order_id" IS DISTINCT FROM OLD."order_id"
    OR NEW."kind" IS DISTINCT FROM OLD."kind"
    OR NEW."currency" IS DISTINCT FROM OLD."currency"
    OR NEW."subtotal" IS DISTINCT FROM OLD."subtotal"
    OR NEW."tax_rate_percent" IS DISTINCT FROM OLD."tax_rate_percent"
    OR NEW."tax_amount" IS DISTINCT FROM OLD."tax_amount"
    OR NEW."total_amount" IS DISTINCT FROM OLD."total_amount"
    OR NEW."amount_usd" IS DISTINCT FROM OLD."amount_usd"
    OR NEW."exchange_rate" IS DISTINCT FROM OLD."exchange_rate"
    OR NEW."tax" IS DISTINCT FROM OLD."tax"
  ) THEN
    RAISE EXCEPTION 'invoice % was issued and cannot be changed', OLD."invoice_number"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "quotes_frozen_when_sent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."quote_number" IS NOT NULL AND (
    NEW."quote_number" IS DISTINCT FROM OLD."quote_number"
    OR NEW."quote_year" IS DISTINCT FROM OLD."quote_year"
    OR NEW."quote_seq" IS DISTINCT FROM OLD."quote_seq"
    OR NEW."client_id" IS DISTINCT FROM OLD."client_id" AND OLD."client_id" IS NOT NULL
    OR NEW."email" IS DISTINCT FROM OLD."email"
    OR NEW."name" IS DISTINCT FROM OLD."name"
    OR NEW."company" IS DISTINCT FROM OLD."company"
    OR NEW."lines" IS DISTINCT FROM OLD."lines"
    OR NEW."subtotal_usd" IS DISTINCT FROM OLD."subtotal_usd"
    OR NEW."discount_usd" IS DISTINCT FROM OLD."discount_usd"
    OR NEW."tax_rate_percent" IS DISTINCT FROM OLD."tax_rate_percent"
    OR NEW."tax_usd" IS DISTINCT FROM OLD."tax_usd"
    OR NEW."total_usd" IS DISTINCT FROM OLD."total_usd"
    OR NEW."deposit_percent" IS DISTINCT FROM OLD."deposit_percent"
    OR NEW."valid_until" IS DISTINCT FROM OLD."valid_until"
    OR NEW."terms" IS DISTINCT FROM OLD."terms"
    OR NEW."tax" IS DISTINCT FROM OLD."tax"
  ) THEN
    RAISE EXCEPTION 'quote % was sent and cannot be changed', OLD."quote_number"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
