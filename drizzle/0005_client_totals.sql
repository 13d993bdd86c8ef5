CREATE TABLE "client_totals" (
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount_usd" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "client_totals_client_id_kind_status_pk" PRIMARY KEY("client_id","kind","status")
);
--> statement-breakpoint
DROP INDEX "invoices_client_created_idx";--> statement-breakpoint
DROP INDEX "invoices_client_status_idx";--> statement-breakpoint
DROP INDEX "orders_client_created_idx";--> statement-breakpoint
DROP INDEX "orders_client_status_idx";--> statement-breakpoint
ALTER TABLE "client_totals" ADD CONSTRAINT "client_totals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_client_created_number_idx" ON "invoices" USING btree ("client_id","created_at","invoice_number");--> statement-breakpoint
CREATE INDEX "invoices_client_status_created_idx" ON "invoices" USING btree ("client_id","status","created_at","invoice_number");--> statement-breakpoint
CREATE INDEX "orders_client_created_id_idx" ON "orders" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_client_status_created_idx" ON "orders" USING btree ("client_id","status","created_at","id");--> statement-breakpoint
-- Hand-written below (drizzle-kit does not model triggers): client_totals is kept by statement-level
-- triggers with transition tables, one per statement whatever its row count, so set-based writes stay
-- cheap. Each adds the statement's net change per (client, status) with an upsert; rows are upserted in
-- (client_id, status) order so concurrent writers lock them in the same order (no deadlock between
-- them), and a row lock serialises the increments (read committed: each adds to the committed value).
-- See docs/decisions/0801-portal-pages-flat-with-data.md.
CREATE FUNCTION "client_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_kind text := CASE TG_TABLE_NAME WHEN 'orders' THEN 'order' ELSE 'invoice' END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, count(*), sum(d.amount_usd)
    FROM new_rows d GROUP BY d.client_id, d.status ORDER BY d.client_id, d.status
    ON CONFLICT (client_id, kind, status) DO UPDATE
      SET count = t.count + excluded.count, amount_usd = t.amount_usd + excluded.amount_usd;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, -count(*), -sum(d.amount_usd)
    FROM old_rows d GROUP BY d.client_id, d.status ORDER BY d.client_id, d.status
    ON CONFLICT (client_id, kind, status) DO UPDATE
      SET count = t.count + excluded.count, amount_usd = t.amount_usd + excluded.amount_usd;
  ELSE
    -- An update that changes no status, amount or client (most do not) nets to nothing and writes nothing.
    INSERT INTO client_totals AS t (client_id, kind, status, count, amount_usd)
    SELECT d.client_id, v_kind, d.status, sum(d.n), sum(d.amount_usd)
    FROM (
      SELECT client_id, status, 1 AS n, amount_usd FROM new_rows
      UNION ALL
      SELECT client_id, status, -1, -amount_usd FROM old_rows
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
CREATE FUNCTION "client_totals_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM client_totals WHERE kind = CASE TG_TABLE_NAME WHEN 'orders' THEN 'order' ELSE 'invoice' END;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_totals_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "orders_totals_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "orders_totals_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "orders_totals_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_truncate();
--> statement-breakpoint
CREATE TRIGGER "invoices_totals_insert" AFTER INSERT ON "invoices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "invoices_totals_update" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "invoices_totals_delete" AFTER DELETE ON "invoices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "invoices_totals_truncate" AFTER TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION client_totals_truncate();
--> statement-breakpoint
-- Backfill, after the triggers exist and in the same transaction as them: the triggers' table locks hold
-- other writers off until this commits, so no write falls between the backfill and the triggers.
INSERT INTO client_totals (client_id, kind, status, count, amount_usd)
SELECT client_id, 'order', status, count(*), sum(amount_usd) FROM orders GROUP BY client_id, status;
--> statement-breakpoint
INSERT INTO client_totals (client_id, kind, status, count, amount_usd)
SELECT client_id, 'invoice', status, count(*), sum(amount_usd) FROM invoices GROUP BY client_id, status;
