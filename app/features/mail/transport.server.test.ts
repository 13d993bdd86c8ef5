/**
 * The headers of a sent email as nodemailer writes them (issue 37, item 15): every recipient is
 * `Name <address>`, never a bare address (SpamAssassin scored the quote email for a To: without
 * brackets), and a name with a "%", a comma or quotes is quoted so it stays one display name.
 */
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, it } from "vitest";
import { storeAddress } from "./email";
import type { ClaimedEmail } from "./outbox.server";
import { outgoingMessage } from "./transport.server";

const FROM = '"Portico IT Services" <hello@portico.example>';

function claimed(to: string, toName: string | null, replyTo: string | null = null): ClaimedEmail {
  return {
    id: "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
    kind: "quote",
    to,
    toName,
    replyTo,
    subject: "Your quote Q-2026-0007: 50% deposit",
    html: "<p>Your quote</p>",
    text: "Your quote",
    attempts: 1,
  };
}

/** The message as it goes over the wire: its unfolded headers by name, and its SMTP envelope. */
async function rendered(email: ClaimedEmail) {
  const node = new MailComposer(outgoingMessage(email, FROM)).compile();
  const raw = (await node.build()).toString("utf8");
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string[]>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    const key = line.slice(0, colon).toLowerCase();
    headers.set(key, [...(headers.get(key) ?? []), line.slice(colon + 1).trim()]);
  }
  return { headers, envelope: node.getEnvelope() };
}

describe("the headers of an outgoing email", () => {
  it.each([
    ["a percentage", "Ada 100% Lovelace", '"Ada 100% Lovelace" <ada@example.com>'],
    ["a comma", "Lovelace, Ada", '"Lovelace, Ada" <ada@example.com>'],
    ["quotes", 'Ada "The Countess" Lovelace', '"Ada \\"The Countess\\" Lovelace" <ada@example.com>'],
    ["a comma and an address", "Ada, boss@victim.example,", '"Ada, boss@victim.example," <ada@example.com>'],
    ["only letters", "Ada Lovelace", "Ada Lovelace <ada@example.com>"],
  ])(
    "writes To: with a name holding %s as one display name (quoted where it must be), in brackets",
    async (_, name, header) => {
      const { headers, envelope } = await rendered(claimed("ada@example.com", name));
      expect(headers.get("to")).toEqual([header]);
      // One recipient, whatever the name holds.
      expect(envelope.to).toEqual(["ada@example.com"]);
    },
  );

  it("encodes a name outside ASCII, and never lets a line break start another header", async () => {
    const { headers, envelope } = await rendered(
      claimed("zoe@example.com", "Zoë\r\nBcc: boss@victim.example"),
    );
    expect(headers.get("to")).toHaveLength(1);
    expect(headers.get("to")![0]).toMatch(/^=\?UTF-8\?[QB]\?.+\?= <zoe@example\.com>$/);
    expect(headers.has("bcc")).toBe(false);
    expect(envelope.to).toEqual(["zoe@example.com"]);
  });

  it("brackets a recipient without a name (a typed address, an older row) behind its local part", async () => {
    const { headers } = await rendered(claimed("visitor.one@example.com", null));
    expect(headers.get("to")).toEqual(['"visitor.one" <visitor.one@example.com>']);
  });

  it("writes Reply-To and From as a quoted name in brackets too", async () => {
    const replyTo = storeAddress({ name: "Grace, 30% off", address: "grace@example.com" });
    const { headers, envelope } = await rendered(
      claimed("hello@portico.example", "Portico IT Services", replyTo),
    );
    expect(headers.get("reply-to")).toEqual(['"Grace, 30% off" <grace@example.com>']);
    expect(headers.get("from")).toEqual(["Portico IT Services <hello@portico.example>"]);
    expect(headers.get("to")).toEqual(["Portico IT Services <hello@portico.example>"]);
    expect(envelope).toEqual({ from: "hello@portico.example", to: ["hello@portico.example"] });
  });
});
