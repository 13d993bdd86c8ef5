-- An account's messages by author: the attachment storage quota sums their bytes (ADR 0514).
CREATE INDEX "order_messages_author_idx" ON "order_messages" USING btree ("author_id");