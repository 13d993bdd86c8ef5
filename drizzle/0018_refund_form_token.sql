-- The back office refund form's one-time token (ADR 0505, issue 35): stored unique with the refund it
-- made, so a form posted twice (a double click, a resent post) makes one refund; it is also the
-- provider's idempotency key. Null for refunds made before this and for refunds made at the provider.
ALTER TABLE "refunds" ADD COLUMN "form_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_form_token_key" ON "refunds" USING btree ("form_token");