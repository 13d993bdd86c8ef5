-- Who signed for a company when a client accepts a quote for one (issue 37, item 9).
ALTER TABLE "quotes" ADD COLUMN "accepted_for_company" text;