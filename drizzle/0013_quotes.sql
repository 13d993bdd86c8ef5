CREATE TABLE "quote_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quote_number" text,
	"quote_year" integer,
	"quote_seq" integer,
	"request_id" uuid,
	"client_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal_usd" numeric(14, 2) DEFAULT 0 NOT NULL,
	"discount_usd" numeric(14, 2) DEFAULT 0 NOT NULL,
	"tax_rate_percent" numeric(5, 2) DEFAULT 0 NOT NULL,
	"tax_usd" numeric(14, 2) DEFAULT 0 NOT NULL,
	"total_usd" numeric(14, 2) DEFAULT 0 NOT NULL,
	"deposit_percent" integer,
	"valid_until" date NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"supersedes_id" uuid,
	"sent_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"accepted_name" text,
	"accepted_ip" text,
	"accepted_user_agent" text,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"expired_at" timestamp with time zone,
	"order_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_quote_number_unique" UNIQUE("quote_number"),
	CONSTRAINT "quotes_deposit_percent" CHECK ("quotes"."deposit_percent" IS NULL OR ("quotes"."deposit_percent" BETWEEN 1 AND 99)),
	CONSTRAINT "quotes_amounts" CHECK ("quotes"."total_usd" >= 0 AND "quotes"."discount_usd" >= 0)
);
--> statement-breakpoint
DROP INDEX "invoices_order_id_key";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "service_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "kind" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_request_id_quote_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."quote_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_year_seq_key" ON "quotes" USING btree ("quote_year","quote_seq");--> statement-breakpoint
CREATE INDEX "quotes_client_created_idx" ON "quotes" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_email_idx" ON "quotes" USING btree ("email");--> statement-breakpoint
CREATE INDEX "quotes_status_valid_idx" ON "quotes" USING btree ("status","valid_until");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_kind_key" ON "invoices" USING btree ("order_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_quote_key" ON "orders" USING btree ("quote_id");--> statement-breakpoint
-- Hand-written below. A sent quote (one with its number) is never edited: its lines, amounts, terms,
-- validity, deposit and recipient stay as sent; only its status and the acceptance, decline, expiry and
-- order columns change. A revision is a new quote that supersedes it.
CREATE FUNCTION "quotes_frozen_when_sent"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ) THEN
    RAISE EXCEPTION 'quote % was sent and cannot be changed', OLD."quote_number"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "quotes_frozen_when_sent" BEFORE UPDATE ON "quotes"
  FOR EACH ROW EXECUTE FUNCTION quotes_frozen_when_sent();
--> statement-breakpoint
-- What an invoice bills (full, deposit, balance) is part of what was issued (ADR 0504's trigger).
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
  ) THEN
    RAISE EXCEPTION 'invoice % was issued and cannot be changed', OLD."invoice_number"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
