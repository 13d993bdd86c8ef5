CREATE TABLE "sign_in_devices" (
	"user_id" text NOT NULL,
	"user_agent" text NOT NULL,
	"ip_family" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_devices_user_id_user_agent_ip_family_pk" PRIMARY KEY("user_id","user_agent","ip_family")
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "email_notifications" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "sms_notifications" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "order_updates" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "marketing_emails" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "security_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sign_in_devices" ADD CONSTRAINT "sign_in_devices_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_devices_user_seen_idx" ON "sign_in_devices" USING btree ("user_id","last_seen_at");