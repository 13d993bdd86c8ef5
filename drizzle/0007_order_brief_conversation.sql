CREATE TABLE "message_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_size" CHECK ("message_attachments"."size" between 1 and 10485760 and octet_length("message_attachments"."bytes") = "message_attachments"."size")
);
--> statement-breakpoint
CREATE TABLE "order_briefs" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"questions" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"answered_by" text,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"author_id" text,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_messages_body_length" CHECK (char_length("order_messages"."body") between 1 and 10000)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "intake_questions" jsonb;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_order_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."order_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_briefs" ADD CONSTRAINT "order_briefs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_briefs" ADD CONSTRAINT "order_briefs_answered_by_user_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_messages" ADD CONSTRAINT "order_messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_messages" ADD CONSTRAINT "order_messages_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_attachments_message_position_key" ON "message_attachments" USING btree ("message_id","position");--> statement-breakpoint
CREATE INDEX "order_messages_order_created_idx" ON "order_messages" USING btree ("order_id","created_at","id");--> statement-breakpoint
CREATE INDEX "order_messages_unread_client_idx" ON "order_messages" USING btree ("created_at") WHERE "order_messages"."author_role" = 'client' and "order_messages"."read_at" is null;--> statement-breakpoint
-- Hand-written below: the timeline's timestamps of orders made before this migration. The back office's
-- audit rows say when each step was taken (action 'order.status', after.status); an order with no such
-- row that is still in that step, or in a final one, reached it at its last update (nothing changes a
-- completed or cancelled order, nor an order in progress but its next step). Others stay null.
UPDATE "orders" o SET
  "started_at" = coalesce(o."started_at", s.started),
  "completed_at" = coalesce(o."completed_at", s.completed),
  "cancelled_at" = coalesce(o."cancelled_at", s.cancelled)
FROM (
  SELECT "entity_id",
    min("at") FILTER (WHERE "after"->>'status' = 'in_progress') AS started,
    min("at") FILTER (WHERE "after"->>'status' = 'completed') AS completed,
    min("at") FILTER (WHERE "after"->>'status' = 'cancelled') AS cancelled
  FROM "audit_log"
  WHERE "action" = 'order.status' AND "entity" = 'order'
  GROUP BY "entity_id"
) s
WHERE s."entity_id" = o."id"::text;--> statement-breakpoint
UPDATE "orders" SET "started_at" = "updated_at" WHERE "status" = 'in_progress' AND "started_at" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "completed_at" = "updated_at" WHERE "status" = 'completed' AND "completed_at" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "cancelled_at" = "updated_at" WHERE "status" = 'cancelled' AND "cancelled_at" IS NULL;
