-- Every notice leads to its object (issue 37, item 5; ADR 0515). Notices raised before it without a
-- link: where the text names the object (an invoice, credit note or quote number of the notice's own
-- user), the notice leads to it; the rest lead to the list of their kind (orders) or to the
-- notifications page of their side.
UPDATE "notifications" AS n SET "href" = '/client/credit-notes/' || c."id"
FROM "credit_notes" AS c
WHERE n."href" IS NULL AND c."client_id" = n."user_id"
  AND c."credit_note_number" = substring(n."message" from 'CN-[0-9]{4}-[0-9]+');
--> statement-breakpoint
UPDATE "notifications" AS n SET "href" = '/client/invoice/' || i."id"
FROM "invoices" AS i
WHERE n."href" IS NULL AND i."client_id" = n."user_id"
  AND i."invoice_number" = substring(n."message" from 'INV-[0-9]{4}-[0-9]+');
--> statement-breakpoint
UPDATE "notifications" AS n SET "href" = '/client/quotes/' || q."id"
FROM "quotes" AS q
WHERE n."href" IS NULL AND q."client_id" = n."user_id"
  AND q."quote_number" = substring(n."message" from 'Q-[0-9]{4}-[0-9]+');
--> statement-breakpoint
UPDATE "notifications" AS n SET "href" = '/admin/quotes/' || q."id"
FROM "quotes" AS q, "user" AS u
WHERE n."href" IS NULL AND u."id" = n."user_id" AND u."role" = 'admin'
  AND q."quote_number" = substring(n."title" || ' ' || n."message" from 'Q-[0-9]{4}-[0-9]+');
--> statement-breakpoint
UPDATE "notifications" AS n SET "href" = CASE
    WHEN u."role" = 'admin' THEN '/admin/notifications'
    WHEN n."title" IN ('Order Update', 'Payment Received', 'New Message') THEN '/client/orders'
    ELSE '/client/notifications'
  END
FROM "user" AS u
WHERE n."href" IS NULL AND u."id" = n."user_id";
