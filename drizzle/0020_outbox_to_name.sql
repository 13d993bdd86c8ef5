-- The recipient's name, so To: reads "Name" <address> (issue 37, item 15). Rows queued before have none.
ALTER TABLE "outbox_emails" ADD COLUMN "to_name" text;