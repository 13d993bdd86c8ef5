ALTER TABLE "clients" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "seller" jsonb;--> statement-breakpoint
-- Invoices issued before this migration: their buyer as the client's profile reads now (the closest
-- copy there is); their seller stays null and reads as the current business settings (ADR 0504).
UPDATE "invoices" AS i SET "buyer" = jsonb_build_object(
  'name', c."name",
  'email', c."email",
  'company', NULLIF(c."company", ''),
  'address', NULL,
  'country', NULL,
  'taxId', NULL,
  'phone', NULLIF(c."phone", '')
) FROM "clients" AS c WHERE c."id" = i."client_id" AND i."buyer" IS NULL;--> statement-breakpoint
-- An issued invoice (one with its buyer frozen) keeps its amounts, rates, number, owner and both copies:
-- only its status, payment and reminder columns change. A correction is a credit note, never an edit.
CREATE FUNCTION "invoices_frozen_when_issued"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."buyer" IS NOT NULL AND (
    NEW."buyer" IS DISTINCT FROM OLD."buyer"
    OR NEW."seller" IS DISTINCT FROM OLD."seller"
    OR NEW."invoice_number" IS DISTINCT FROM OLD."invoice_number"
    OR NEW."invoice_year" IS DISTINCT FROM OLD."invoice_year"
    OR NEW."invoice_seq" IS DISTINCT FROM OLD."invoice_seq"
    OR NEW."client_id" IS DISTINCT FROM OLD."client_id"
    OR NEW."order_id" IS DISTINCT FROM OLD."order_id"
    OR NEW."currency" IS DISTINCT FROM OLD."currency"
    OR NEW."subtotal" IS DISTINCT FROM OLD."subtotal"
    OR NEW."tax_rate_percent" IS DISTINCT FROM OLD."tax_rate_percent"
    OR NEW."tax_amount" IS DISTINCT FROM OLD."tax_amount"
    OR NEW."total_amount" IS DISTINCT FROM OLD."total_amount"
    OR NEW."amount_usd" IS DISTINCT FROM OLD."amount_usd"
    OR NEW."exchange_rate" IS DISTINCT FROM OLD."exchange_rate"
  ) THEN
    RAISE EXCEPTION 'invoice % was issued and cannot be changed', OLD."invoice_number"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_frozen_when_issued" BEFORE UPDATE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoices_frozen_when_issued();
