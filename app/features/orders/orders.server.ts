/**
 * Buying a package (client-portal.md §4 "Purchase", ARCHITECTURE.md "Main flows"): the server prices
 * the order from the catalogue, stores the order (pending) and its invoice (sent, numbered gap-free per
 * year) with the 'New Invoice' notification in one transaction, and only then asks the payment provider
 * for a checkout. Nothing the browser sends about money is read.
 */

import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import {
  type Client,
  type Invoice,
  invoices,
  type Order,
  orders,
  planSubscriptions,
  type Service,
} from "~/db/schema";
import {
  defaultPackage,
  offeredPackages,
  orderQuantity,
  quantityRules,
  servicePagePath,
} from "~/features/catalogue/catalogue";
import { getService, resolveServiceId } from "~/features/catalogue/catalogue.server";
import { type Rates, toCurrencyCode } from "~/features/currency/currency";
import { invoicePartLabel } from "~/features/invoices/invoice-kind";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { firstInvoiceOf, unpaidInvoiceSql } from "~/features/invoices/invoice-status.server";
import { billingCountryNeeded, taxForClient } from "~/features/tax/client-tax.server";
import { COUNTRY_NEEDED } from "~/features/tax/document-tax";
import { consumeCheckoutAllowance } from "./checkout-limit.server";
import type { CheckoutProvider } from "./checkout-provider";
import { createOrder } from "./create-order.server";
import { PAYMENT_FAILED, SERVICE_NOT_FOUND, TOO_MANY_ORDERS, TOO_MANY_PAYMENTS } from "./messages";
import { chargeCurrency, chooseAddons, priceOrder } from "./pricing";

export interface OrderDeps {
  db: Database;
  config: Pick<Config, "publicUrl" | "invoices" | "business"> & Partial<Pick<Config, "tax">>;
  /** The payment providers; checkout asks the active one (the runtime's, given by `orderDeps`). */
  providers: { active: CheckoutProvider };
  /** The current exchange rates (units per USD). */
  rates: () => Promise<Rates>;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export interface CheckoutInput {
  client: Pick<Client, "id" | "email">;
  /** Whatever the purchase URL carries: canonical id, slug, name or alias. */
  serviceRouteId: string;
  packageKey: string | undefined;
  quantity: unknown;
  /** The add-ons asked for, by key ('procurement'); never a price. */
  addons?: readonly string[];
  currency: string | undefined;
  /** The purchase form's one-time token: the same form posted twice makes one order. */
  checkoutToken: string;
  /**
   * The client's domain alert this order fixes (issue 39), already found among theirs, with the slug of
   * the service that fixes it: another service is refused.
   */
  fromDomainAlert?: { id: string; serviceSlug: string | null } | null;
}

/** The purchase form as posted: only what to buy, never a price. */
export const checkoutForm = z.object({
  checkoutToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { message: "The order form expired. Please reload." }),
  package: z.string().max(64).optional(),
  quantity: z.string().max(32).optional(),
  currency: z.string().max(8).optional(),
  /** The add-ons ticked (`addon=procurement`): their prices come from the catalogue, never the form. */
  addons: z.array(z.string().max(64)).max(8),
  /** The domain alert the order fixes (issue 39): the route checks it is the client's. */
  fromAlert: z.uuid({ message: "That alert was not found." }).optional(),
});

export type CheckoutOutcome =
  | { ok: true; redirectTo: string; orderId: string; invoiceId: string }
  | { ok: false; status: number; error: string; orderId?: string };

export { PAYMENT_FAILED, SERVICE_NOT_FOUND };

/** A purchase form's one-time token. */
export function newCheckoutToken(): string {
  return randomBytes(18).toString("base64url");
}

/** The service a purchase URL names, with its resolved id, or null. */
export async function findPurchasableService(db: Database, routeId: string): Promise<Service | null> {
  const id = await resolveServiceId(db, routeId);
  if (!id) return null;
  const service = await getService(db, id);
  return service?.active ? service : null;
}

/** The package a purchase asks for, if the service offers it; else its default package. */
export function choosePackage(service: Service, requested: string | null | undefined): string {
  if (requested && offeredPackages(service).some((p) => p.key === requested)) return requested;
  return defaultPackage(service);
}

function orderDescription(
  order: Pick<Order, "serviceName" | "packageName" | "quantity"> & { addons?: Order["addons"] },
): string {
  const extras = (order.addons ?? []).map((a) => ` + ${a.name}`).join("");
  return `${order.serviceName} — ${order.packageName}${order.quantity > 1 ? ` × ${order.quantity}` : ""}${extras}`;
}

/**
 * The checkout's line as the provider shows it: what is bought, and for a quote's deposit or balance
 * which part of it ("Deposit: Custom work (Q-2026-0001) — Quote Q-2026-0001"), so the client's card
 * statement and the provider's receipt never read as the whole order paid (issue 37, item 2).
 */
function checkoutDescription(
  order: Pick<Order, "serviceName" | "packageName" | "quantity"> & { addons?: Order["addons"] },
  invoice: Pick<Invoice, "kind">,
): string {
  const part = invoicePartLabel(invoice.kind);
  return part ? `${part}: ${orderDescription(order)}` : orderDescription(order);
}

/**
 * Validates, prices and stores an order and its invoice; then starts the provider's checkout. Counts
 * against the client's checkout budget first (checkout-limit.server.ts).
 */
export async function checkout(deps: OrderDeps, input: CheckoutInput): Promise<CheckoutOutcome> {
  const { db, logger } = deps;
  const allowance = await consumeCheckoutAllowance(db, input.client.id);
  if (!allowance.allowed) return { ok: false, status: allowance.status, error: TOO_MANY_ORDERS };
  const service = await findPurchasableService(db, input.serviceRouteId);
  if (!service) return { ok: false, status: 404, error: SERVICE_NOT_FOUND(input.serviceRouteId) };
  if (input.fromDomainAlert && input.fromDomainAlert.serviceSlug !== service.slug) {
    return { ok: false, status: 400, error: "That alert is fixed by another service." };
  }
  const packageKey = input.packageKey ?? defaultPackage(service);
  const offered = offeredPackages(service).find((p) => p.key === packageKey);
  if (!offered) {
    return { ok: false, status: 400, error: `This service has no package "${packageKey}".` };
  }
  if (await billingCountryNeeded(db, deps.config, input.client.id)) {
    return { ok: false, status: 409, error: COUNTRY_NEEDED };
  }
  const unitPriceUsd = offered.priceUsd;
  const rules = quantityRules(service);
  const quantity = orderQuantity(input.quantity, rules);
  if (quantity === null) {
    return {
      ok: false,
      status: 400,
      error: `${rules.label ?? "Quantity"} must be a whole number from ${rules.min} to ${rules.max}.`,
    };
  }
  const chosen = chooseAddons(service.addons ?? {}, input.addons ?? []);
  if (!chosen.ok) {
    return { ok: false, status: 400, error: `This service has no add-on "${chosen.unknown}".` };
  }
  // An unknown currency or one without a rate is charged in USD (prices "stay in USD").
  const price = priceOrder({
    unitPriceUsd,
    quantity,
    addons: chosen.addons,
    ...chargeCurrency(toCurrencyCode(input.currency), await deps.rates()),
    taxRatePercent: deps.config.invoices.taxRatePercent,
    // The buyer's VAT treatment, VIES asked again where due (issue 40): what the invoice freezes.
    tax: await taxForClient(db, deps.config, input.client.id, { ask: true }),
  });

  const created = await db.transaction((tx) =>
    createOrder(tx, deps.config, {
      order: {
        clientId: input.client.id,
        serviceId: service.id,
        serviceName: service.name,
        serviceCategory: service.category,
        package: packageKey,
        packageName: offered.name,
        quantity,
        unitPriceUsd: price.unitPriceUsd,
        addons: price.addons,
        amountUsd: price.amountUsd,
        currency: price.currency,
        amountInCurrency: price.subtotal,
        exchangeRate: price.exchangeRate,
        provider: deps.providers.active.name,
        checkoutToken: input.checkoutToken,
        fromDomainAlertId: input.fromDomainAlert?.id ?? null,
      },
      invoicePrice: price,
    }),
  );

  if (!created) {
    // A repeat of a form already posted: continue with the order it made, never a second one.
    const found = await findOrderWithInvoice(db, input.client.id, { checkoutToken: input.checkoutToken });
    if (!found)
      return { ok: false, status: 409, error: "This order form was already used. Please try again." };
    logger.info({ orderId: found.order.id }, "checkout: repeated form, reusing its order");
    if (found.order.status !== "pending") {
      return {
        ok: true,
        redirectTo: successPath(found.order, found.invoice),
        orderId: found.order.id,
        invoiceId: found.invoice.id,
      };
    }
    return startCheckout(deps, {
      ...found,
      client: input.client,
      idempotencyKey: found.order.id,
      cancelPath: cancelPathFor(service, found.order),
    });
  }
  logger.info(
    { orderId: created.order.id, invoiceNumber: created.invoice.invoiceNumber, amountUsd: price.totalUsd },
    "checkout: order and invoice created",
  );
  return startCheckout(deps, {
    ...created,
    client: input.client,
    idempotencyKey: created.order.id,
    cancelPath: cancelPathFor(service, created.order),
  });
}

function cancelPathFor(
  service: Pick<Service, "id" | "slug" | "name">,
  order: Pick<Order, "package" | "currency">,
) {
  const slug = servicePagePath(service).replace(/^\/services\//, "") || service.id;
  return `/client/purchase/${encodeURIComponent(slug)}?package=${encodeURIComponent(order.package)}&currency=${order.currency}`;
}

function successPath(order: Pick<Order, "id">, invoice: Pick<Invoice, "totalAmount">): string {
  return `/payment-success?order_id=${order.id}&amount=${invoice.totalAmount}`;
}

/**
 * Asks the active provider for a checkout of an unpaid invoice and returns where to send the browser.
 * With `saveCardFor`, the card paid with is saved on that provider customer (a care plan's first period).
 */
export async function startCheckout(
  deps: OrderDeps,
  input: {
    order: Order;
    invoice: Invoice;
    client: Pick<Client, "email">;
    idempotencyKey: string;
    cancelPath: string;
    saveCardFor?: { customerId: string };
  },
): Promise<CheckoutOutcome> {
  const { order, invoice } = input;
  const base = deps.config.publicUrl;
  const provider = deps.providers.active;
  try {
    const result = await provider.createCheckout({
      orderId: order.id,
      invoiceId: invoice.id,
      invoiceNumber: invoice.invoiceNumber,
      description: checkoutDescription(order, invoice),
      amount: invoice.totalAmount,
      currency: invoice.currency,
      customerEmail: input.client.email,
      successUrl: `${base}${successPath(order, invoice)}`,
      cancelUrl: `${base}${input.cancelPath}`,
      idempotencyKey: input.idempotencyKey,
      ...(input.saveCardFor ? { saveCardFor: input.saveCardFor } : {}),
    });
    if (
      result.reference &&
      (result.reference !== order.providerReference || provider.name !== order.provider)
    ) {
      await deps.db
        .update(orders)
        .set({ provider: provider.name, providerReference: result.reference, updatedAt: new Date() })
        .where(and(eq(orders.id, order.id), eq(orders.status, "pending")));
    }
    // The invoice keeps the checkout it is paid through, whatever its order's status (a quote's balance
    // is paid once the order is complete): the sweep and the return check ask about it (ADR 0503).
    if (
      result.reference &&
      (result.reference !== invoice.checkoutReference || provider.name !== invoice.checkoutProvider)
    ) {
      await deps.db
        .update(invoices)
        .set({
          checkoutProvider: provider.name,
          checkoutReference: result.reference,
          checkoutStartedAt: new Date(),
          checkoutCheckedAt: null,
        })
        .where(and(eq(invoices.id, invoice.id), unpaidInvoiceSql));
    }
    return {
      ok: true,
      redirectTo: result.url ?? successPath(order, invoice),
      orderId: order.id,
      invoiceId: invoice.id,
    };
  } catch (error) {
    // The order and invoice stay pending and unpaid; Pay Now on the invoice tries again.
    const message = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ err: error, orderId: order.id }, "checkout: the payment provider failed");
    return { ok: false, status: 502, error: PAYMENT_FAILED(message), orderId: order.id };
  }
}

export async function findOrderWithInvoice(
  db: Database,
  clientId: string,
  by: { checkoutToken: string } | { invoiceId: string },
): Promise<{ order: Order; invoice: Invoice } | null> {
  const where =
    "checkoutToken" in by
      ? and(eq(orders.clientId, clientId), eq(orders.checkoutToken, by.checkoutToken))
      : /^[0-9a-f-]{36}$/i.test(by.invoiceId)
        ? and(eq(invoices.clientId, clientId), eq(invoices.id, by.invoiceId))
        : sql`false`;
  const [row] = await db
    .select({ order: orders, invoice: invoices })
    .from(orders)
    // A checkout token names the order's first invoice; an invoice id any of its invoices (a quote's
    // balance, issued when the work is complete, is paid through Pay Now too).
    .innerJoin(invoices, "checkoutToken" in by ? firstInvoiceOf(orders.id) : eq(invoices.orderId, orders.id))
    .where(where)
    .limit(1);
  return row ?? null;
}

/**
 * Pay Now for an existing unpaid invoice (the portal's invoice list, issue 12): a NEW provider checkout
 * for the same order and invoice — never a second invoice. Answers 404 for another client's invoice.
 * Counts against the same checkout budget as a purchase.
 */
export async function payInvoice(
  deps: OrderDeps,
  input: { client: Pick<Client, "id" | "email">; invoiceId: string },
): Promise<CheckoutOutcome> {
  const allowance = await consumeCheckoutAllowance(deps.db, input.client.id);
  if (!allowance.allowed) return { ok: false, status: allowance.status, error: TOO_MANY_PAYMENTS };
  const found = await findOrderWithInvoice(deps.db, input.client.id, { invoiceId: input.invoiceId });
  if (!found) return { ok: false, status: 404, error: "Invoice Not Found" };
  const { order, invoice } = found;
  // An open invoice of a live order: the order's first invoice while it is pending, or the balance of
  // a quote's order (issued when the work is complete).
  if (!isUnpaidOrOverdue(invoice.status) || order.status === "cancelled") {
    return {
      ok: false,
      status: 409,
      error: `Invoice ${invoice.invoiceNumber} cannot be paid: it is ${invoice.status === "paid" ? "already paid" : order.status}.`,
    };
  }
  // A fresh key per attempt (a provider keeps a key's checkout, which may have expired); the minute
  // in it folds a double click into one checkout. A quote's balance has keys of its own: within the
  // deposit's minute, the deposit's key would answer with the deposit's (paid) checkout.
  const attempt = Math.floor(Date.now() / 60_000);
  return startCheckout(deps, {
    order,
    invoice,
    client: input.client,
    idempotencyKey:
      invoice.kind === "balance" ? `${order.id}:balance:pay:${attempt}` : `${order.id}:pay:${attempt}`,
    cancelPath: "/client/invoices",
    ...(await planCardSaving(deps, order)),
  });
}

/**
 * A care plan's invoice paid by hand saves the card paid with for the plan's renewals (ADR 0531): the
 * plan's customer at the active provider, read from its row (orders sit below plans, so by the table).
 */
async function planCardSaving(
  deps: OrderDeps,
  order: Order,
): Promise<{ saveCardFor?: { customerId: string } }> {
  if (!order.planSubscriptionId) return {};
  const [plan] = await deps.db
    .select({ customerId: planSubscriptions.providerCustomerId, provider: planSubscriptions.provider })
    .from(planSubscriptions)
    .where(eq(planSubscriptions.id, order.planSubscriptionId))
    .limit(1);
  return plan?.customerId && plan.provider === deps.providers.active.name
    ? { saveCardFor: { customerId: plan.customerId } }
    : {};
}
