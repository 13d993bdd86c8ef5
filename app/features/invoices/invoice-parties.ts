/**
 * The buyer and the seller an invoice prints, frozen when it is issued
 * (docs/decisions/0504-invoices-frozen-when-issued.md): `buyerSnapshot` and `sellerSnapshot` copy them
 * in the issuing transaction; `readBuyer` and `readSeller` check the stored copies when read, falling
 * back to the current profile or settings only where no copy was ever made.
 */

import { z } from "zod";
import type { Client, InvoiceBuyer, InvoiceSeller } from "~/db/schema";
import { countryName } from "~/features/accounts/countries";
import type { BusinessIdentity } from "~/features/business/business";

export type { InvoiceBuyer, InvoiceSeller };

/** The client's details an invoice copies (the profile's fields). */
export type BuyerSource = Pick<Client, "name" | "email" | "phone" | "company"> &
  Partial<Pick<Client, "address" | "country" | "countryCode" | "taxId" | "buyerReference">>;

const optionalText = (max: number) => z.string().max(max).nullable();

const buyerSchema = z.object({
  name: z.string().min(1).max(200),
  email: z.string().min(1).max(254),
  company: optionalText(200),
  address: optionalText(500),
  country: optionalText(100),
  taxId: optionalText(100),
  phone: optionalText(100),
  countryCode: optionalText(2).optional(),
  reference: optionalText(200).optional(),
}) satisfies z.ZodType<InvoiceBuyer>;

const sellerSchema = z.object({
  name: z.string().min(1).max(500),
  legalName: z.string().min(1).max(500),
  address: z.string().max(1000),
  email: z.string().max(254),
  phone: z.string().max(200),
  taxId: optionalText(200),
  countryCode: optionalText(2).optional(),
  taxNumber: optionalText(200).optional(),
  registrationId: optionalText(200).optional(),
}) satisfies z.ZodType<InvoiceSeller>;

/** A stored copy that fails its check: the invoice is not printed with made-up details. */
export class InvalidInvoiceSnapshot extends Error {
  constructor(part: "buyer" | "seller", issue: string) {
    super(`the invoice's stored ${part} is not valid: ${issue}`);
    this.name = "InvalidInvoiceSnapshot";
  }
}

const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

export function buyerSnapshot(client: BuyerSource): InvoiceBuyer {
  return {
    name: client.name,
    email: client.email,
    company: blankToNull(client.company),
    address: blankToNull(client.address),
    // The country's name from its code (issue 37, item 12); an old text no country matched, as typed.
    country: countryName(client.countryCode) ?? blankToNull(client.country),
    taxId: blankToNull(client.taxId),
    phone: blankToNull(client.phone),
    countryCode: client.countryCode ?? null,
    reference: blankToNull(client.buyerReference),
  };
}

/** The seller's identifiers beyond the business card (issue 40): `config.tax`'s. */
export interface SellerTaxIds {
  mode: { country?: string | null };
  registrationId: string | null;
  taxNumber: string | null;
}

export function sellerSnapshot(business: BusinessIdentity, tax?: SellerTaxIds): InvoiceSeller {
  return {
    name: business.name,
    legalName: business.legalName,
    address: business.address,
    email: business.email,
    phone: business.phone,
    taxId: blankToNull(business.taxId),
    countryCode: tax?.mode.country ?? null,
    taxNumber: tax?.taxNumber ?? null,
    registrationId: tax?.registrationId ?? null,
  };
}

/** The stored buyer, checked; null (a row made outside the issuing path): the client as they are now. */
export function readBuyer(stored: unknown, current: BuyerSource): InvoiceBuyer {
  if (stored === null || stored === undefined) return buyerSnapshot(current);
  const parsed = buyerSchema.safeParse(stored);
  if (!parsed.success) throw new InvalidInvoiceSnapshot("buyer", parsed.error.issues[0]?.message ?? "");
  return parsed.data;
}

/** The stored seller, checked; null (issued before copies were kept): the current business settings. */
export function readSeller(stored: unknown, current: BusinessIdentity): InvoiceSeller {
  if (stored === null || stored === undefined) return sellerSnapshot(current);
  const parsed = sellerSchema.safeParse(stored);
  if (!parsed.success) throw new InvalidInvoiceSnapshot("seller", parsed.error.issues[0]?.message ?? "");
  return parsed.data;
}
