/**
 * The conversation on the client's order page (ADR 0512): the thread, and a form for a message with up
 * to five files while the client may write; once the follow-up period is over (or the order was
 * cancelled) the reason instead, with where to buy the same help again.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ORDER_MESSAGE_MAX_CHARS } from "~/db/limits";
import {
  ACCEPT_ATTACHMENTS,
  ALLOWED_KINDS_TEXT,
  filesProblem,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from "~/features/orders/attachments";
import type { ConversationState } from "~/features/orders/conversation";
import type { ThreadMessage } from "~/features/orders/conversation.server";
import { followUpEndedMessage } from "~/features/orders/follow-up-words";
import { OrderThread } from "~/features/orders/OrderThread";
import { Button } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Alert, FormError, TextAreaField, TextField } from "~/ui/field";
import type { ActionResult } from "~/ui/form";
import { formatCount, formatDate } from "~/ui/format";
import { useTimeZone } from "~/ui/time-zone";

export type MessageResult = ActionResult<
  { intent: "message"; message: string; messageId: string },
  {
    intent: "message";
    fieldErrors: { body?: string; files?: string };
    /** The text as sent, so a refused message is not lost (a page without JavaScript renders anew). */
    body: string;
    /** 409: the conversation closed to the client since the page was loaded. */
    closed?: { buyAgain: BuyAgainLink | null };
  }
>;

type BuyAgainLink = { href: string; label: string };

/** Why the client can no longer write here, and where to buy the same help again. */
function Closed({
  message,
  buyAgain,
  reason,
}: {
  message: string;
  buyAgain: BuyAgainLink | null;
  reason: string;
}) {
  return (
    <div className="mt-6" data-conversation-closed={reason}>
      <Alert tone="info">
        {message}
        {buyAgain && (
          <>
            {" "}
            <Link to={buyAgain.href} className="font-semibold underline">
              {buyAgain.label}
            </Link>
          </>
        )}
      </Alert>
    </div>
  );
}

function MessageForm({ result }: { result: MessageResult | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.formData?.get("intent") === "message";
  const form = useRef<HTMLFormElement>(null);
  // A file refused in the browser, before anything is sent.
  const [refused, setRefused] = useState<string | null>(null);
  const failure = result && !result.ok ? result : undefined;
  const sentId = result?.ok ? result.messageId : null;
  useEffect(() => {
    if (sentId) form.current?.reset();
  }, [sentId]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const files = new FormData(event.currentTarget)
      .getAll("files")
      .filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
    const problem = filesProblem(files);
    setRefused(problem?.error ?? null);
    if (problem) event.preventDefault();
  };

  const filesError = refused ?? failure?.fieldErrors.files;
  const bodyError = refused ? undefined : failure?.fieldErrors.body;
  const alert = !refused && failure && !failure.fieldErrors.body && !failure.fieldErrors.files;
  return (
    <Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      aria-label="Write a message"
      className="mt-6 space-y-4 border-t border-slate-200 pt-6"
    >
      <input type="hidden" name="intent" value="message" />
      {sentId && !refused && <Alert tone="success">{result?.ok && result.message}</Alert>}
      {alert && <FormError message={failure.error} />}
      <TextAreaField
        label="Your message"
        name="body"
        rows={5}
        required
        maxLength={ORDER_MESSAGE_MAX_CHARS}
        defaultValue={failure?.body ?? ""}
        error={bodyError}
        hint={`Up to ${formatCount(ORDER_MESSAGE_MAX_CHARS)} characters. Web addresses become links.`}
      />
      <TextField
        type="file"
        label="Attach files (optional)"
        name="files"
        multiple
        accept={ACCEPT_ATTACHMENTS}
        error={filesError}
        hint={`Up to ${MAX_ATTACHMENTS_PER_MESSAGE} files of 10 MB each: ${ALLOWED_KINDS_TEXT}.`}
        className="[&_input]:text-sm"
      />
      <Button type="submit" disabled={sending}>
        {sending ? "Sending…" : "Send message"}
      </Button>
    </Form>
  );
}

export function OrderConversation({
  orderId,
  messages,
  conversation,
  buyAgain,
  ownerName,
  result,
}: {
  orderId: string;
  messages: readonly ThreadMessage[];
  conversation: ConversationState;
  buyAgain: BuyAgainLink | null;
  ownerName: string;
  result: MessageResult | undefined;
}) {
  const tz = useTimeZone();
  // The ended follow-up's day in the client's zone (the state's own message has the seller's).
  const closedMessage =
    !conversation.open && conversation.reason === "follow-up-ended" && conversation.endedAt
      ? followUpEndedMessage(conversation.endedAt, tz)
      : !conversation.open
        ? conversation.message
        : "";
  // Closed since the page was loaded (a refused post says so before the page's data is read again).
  const closedNow = result && !result.ok ? result.closed : undefined;
  return (
    <section aria-labelledby="conversation-heading" className={cardClass("p-5")}>
      <h2 id="conversation-heading" className="text-lg font-bold">
        Conversation
      </h2>
      <p className="mt-1 mb-4 text-sm text-slate-600">
        Questions, files and news about this order. We answer here, and you get an email when we do.
      </p>
      <OrderThread
        messages={messages}
        mineLabel="You"
        theirsLabel={ownerName}
        fileHref={(id) => `/client/orders/${orderId}/files/${id}`}
        empty="No messages yet."
      />
      {!conversation.open ? (
        <Closed message={closedMessage} buyAgain={buyAgain} reason={conversation.reason} />
      ) : closedNow && result && !result.ok ? (
        <Closed message={result.error} buyAgain={closedNow.buyAgain} reason="closed" />
      ) : (
        <>
          {conversation.followUpEndsAt && (
            <p className="mt-6 text-sm text-slate-600">
              Follow-up questions are open until {formatDate(conversation.followUpEndsAt, "long", tz)}.
            </p>
          )}
          <MessageForm result={result} />
        </>
      )}
    </section>
  );
}
