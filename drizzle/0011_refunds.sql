CREATE TABLE "credit_note_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credit_note_number" text NOT NULL,
	"credit_note_year" integer NOT NULL,
	"credit_note_seq" integer NOT NULL,
	"refund_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"tax_rate_percent" numeric(5, 2) NOT NULL,
	"tax_amount" numeric(14, 2) NOT NULL,
	"total_amount" numeric(14, 2) NOT NULL,
	"amount_usd" numeric(14, 2) NOT NULL,
	"exchange_rate" numeric(18, 8) NOT NULL,
	"reason" text NOT NULL,
	"buyer" jsonb,
	"seller" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_credit_note_number_unique" UNIQUE("credit_note_number"),
	CONSTRAINT "credit_notes_total_positive" CHECK ("credit_notes"."total_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reason" text NOT NULL,
	"provider_refund_id" text,
	"reference" text,
	"failure_reason" text,
	"requested_by_id" text,
	"requested_by_email" text NOT NULL,
	"succeeded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refunded_amount" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refunded_usd" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_usd" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_year_seq_key" ON "credit_notes" USING btree ("credit_note_year","credit_note_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_refund_key" ON "credit_notes" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "credit_notes_client_created_idx" ON "credit_notes" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_notes_created_idx" ON "credit_notes" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_refund_key" ON "refunds" USING btree ("provider","provider_refund_id");--> statement-breakpoint
CREATE INDEX "refunds_invoice_idx" ON "refunds" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_refunded_within_total" CHECK ("invoices"."refunded_amount" >= 0 AND "invoices"."refunded_amount" <= "invoices"."total_amount" AND "invoices"."refunded_usd" >= 0 AND "invoices"."refunded_usd" <= "invoices"."amount_usd");--> statement-breakpoint
-- Hand-written below (ADR 0505). client_totals counts money net of refunds: each row adds
-- amount_usd - refunded_usd (both tables now have refunded_usd, 0 on every existing row, so the stored
-- totals are already right and need no rebuild). Otherwise as 0005.
CREATE OR REPLACE FUNCTION "client_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_kind text := CASE TG_TABLE_NAME WHEN 'orders' THEN 'order' ELSE 'invoice' END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, count(*), sum(d.amount_usd - d.refunded_usd)
    FROM new_rows d GROUP BY d.client_id, d.status ORDER BY d.client_id, d.status
    ON CONFLICT (client_id, kind, status) DO UPDATE
      SET count = t.count + excluded.count, amount_usd = t.amount_usd + excluded.amount_usd;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, -count(*), -sum(d.amount_usd - d.refunded_usd)
    FROM old_rows d GROUP BY d.client_id, d.status ORDER BY d.client_id, d.status
    ON CONFLICT (client_id, kind, status) DO UPDATE
      SET count = t.count + excluded.count, amount_usd = t.amount_usd + excluded.amount_usd;
  ELSE
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, sum(d.n), sum(d.amount_usd)
    FROM (
      SELECT client_id, status, 1 AS n, amount_usd - refunded_usd AS amount_usd FROM new_rows
      UNION ALL
      SELECT client_id, status, -1, -(amount_usd - refunded_usd) FROM old_rows
    ) d
    GROUP BY d.client_id, d.status
    HAVING sum(d.n) <> 0 OR sum(d.amount_usd) <> 0
    ORDER BY d.client_id, d.status
    ON CONFLICT (client_id, kind, status) DO UPDATE
      SET count = t.count + excluded.count, amount_usd = t.amount_usd + excluded.amount_usd;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A credit note, once issued, is never changed (a correction of it would be another document).
CREATE FUNCTION "credit_notes_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit note % was issued and cannot be changed', OLD."credit_note_number"
    USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_notes_immutable" BEFORE UPDATE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION credit_notes_immutable();
