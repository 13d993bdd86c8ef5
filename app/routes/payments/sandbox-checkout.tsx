import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { formatMoney } from "~/features/money/format";
import { SandboxTestCardChoice } from "~/features/payments/SandboxTestCardChoice";
import { SANDBOX_TEST_CARD_NAMES } from "~/features/payments/sandbox-cards";
import { buttonClass } from "~/ui/button";
import { actionResponse, formErrors } from "~/ui/form";
import { Icon } from "~/ui/icon";
import type { Route } from "./+types/sandbox-checkout";

export const meta: Route.MetaFunction = () => [
  { title: "Sandbox Checkout" },
  { name: "robots", content: "noindex" },
];

/** Where the URL's session token leads, or a 404 for a token the sandbox did not make. */
function sessionOf(context: Route.LoaderArgs["context"], token: string | null) {
  const sandbox = context.runtime.payments.sandbox;
  const session = sandbox && token ? sandbox.readSession(token) : null;
  if (!sandbox || !session) throw data("This checkout link is not valid.", { status: 404 });
  return { sandbox, session };
}

/** Same-app paths only: the sandbox returns the browser to the portal that sent it here. */
function pathOf(url: string): string {
  const u = new URL(url, "http://x");
  return `${u.pathname}${u.search}`;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("session");
  const { session } = sessionOf(context, token);
  return {
    businessName: context.runtime.config.business.name,
    description: session.description,
    invoiceNumber: session.invoiceNumber,
    amount: session.amount,
    currency: session.currency,
    setup: session.mode === "setup",
    savesCard: Boolean(session.saveCardFor),
    token: token!,
  };
}

const Intent = z.object({
  intent: z.enum(["pay", "save", "cancel"]),
  session: z.string().max(4000),
  card: z.enum(SANDBOX_TEST_CARD_NAMES as [string, ...string[]]).optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = Intent.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return actionResponse({ ok: false, status: 400, error: "Choose a test card, then Pay or Cancel." });
  const { sandbox, session } = sessionOf(context, parsed.data.session);
  if (parsed.data.intent === "cancel") throw redirect(pathOf(session.cancelUrl));
  const card = SANDBOX_TEST_CARD_NAMES.find((name) => name === parsed.data.card) ?? "succeeds";
  if (session.mode === "setup") {
    await sandbox.saveCard(session, card);
    throw redirect(pathOf(session.successUrl));
  }
  try {
    await sandbox.pay(session, card);
  } catch (error) {
    context.logger.warn({ err: error, orderId: session.orderId }, "sandbox: payment webhook failed");
    const message = `The payment could not be completed: ${(error as Error).message}`;
    return actionResponse({ ok: false, status: 502, error: message });
  }
  throw redirect(pathOf(session.successUrl));
}

export default function SandboxCheckout({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { error } = formErrors(actionData);
  const busy = navigation.state !== "idle";
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg">
        <p className="text-xs font-semibold uppercase tracking-wide text-amber-700">
          Sandbox payment provider
        </p>
        <h1 className="mt-2 text-2xl font-bold">
          {d.setup ? `Save a card for ${d.businessName}` : `Pay ${d.businessName}`}
        </h1>
        <dl className="mt-6 space-y-3 text-sm">
          <div>
            <dt className="text-slate-500">{d.setup ? "For" : "Item"}</dt>
            <dd className="font-medium">{d.description}</dd>
          </div>
          {!d.setup && (
            <>
              <div>
                <dt className="text-slate-500">Invoice</dt>
                <dd>{d.invoiceNumber}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Amount</dt>
                <dd className="text-2xl font-bold" data-testid="sandbox-amount" suppressHydrationWarning>
                  {formatMoney(d.amount, d.currency)}{" "}
                  <span className="text-base font-medium text-slate-500">{d.currency}</span>
                </dd>
              </div>
            </>
          )}
        </dl>
        {error && (
          <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <Form method="post" className="mt-8">
          <input type="hidden" name="session" value={d.token} />
          {d.savesCard && <SandboxTestCardChoice setup={d.setup} />}
          <div className="flex gap-3">
            <button
              type="submit"
              name="intent"
              value={d.setup ? "save" : "pay"}
              disabled={busy}
              className={buttonClass("primary", "flex-1")}
            >
              <Icon name="lock" className="size-4" /> {d.setup ? "Save card" : "Pay"}
            </button>
            <button
              type="submit"
              name="intent"
              value="cancel"
              disabled={busy}
              className={buttonClass("secondary", "flex-1")}
            >
              Cancel
            </button>
          </div>
        </Form>
        <p className="mt-6 text-xs text-slate-500">
          No money moves: this is the built-in test provider. Pay confirms the payment to the portal through a
          signed webhook, as a real provider does; a saved test card decides how later charges of it end.
        </p>
      </div>
    </div>
  );
}
