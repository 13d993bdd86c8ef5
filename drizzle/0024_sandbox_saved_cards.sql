CREATE TABLE "sandbox_saved_cards" (
	"payment_method_id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"card" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_saved_cards_checkout_id_unique" UNIQUE("checkout_id")
);
