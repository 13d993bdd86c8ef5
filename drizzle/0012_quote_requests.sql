CREATE TABLE "quote_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"services" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text NOT NULL,
	"budget" text,
	"deadline" date,
	"status" text DEFAULT 'new' NOT NULL,
	"source" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quote_requests" ADD CONSTRAINT "quote_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_requests_created_idx" ON "quote_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "quote_requests_client_created_idx" ON "quote_requests" USING btree ("client_id","created_at");