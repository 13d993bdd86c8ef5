/**
 * A client's VAT number confirmed when they save their billing details (issue 40, item 3): only where it
 * matters, for an EU seller and a buyer in another member state, is it normalised, checked for its
 * format, and asked of VIES with the seller's own number as requester. A number VIES refuses is refused
 * in words; one VIES could not answer for is kept "unconfirmed" (VAT charged as for a consumer until it
 * is confirmed); one already confirmed is not asked again.
 */
import type { SellerTaxMode, VatNumberStatus } from "./treatment";
import { isEuCountry, parseVatNumber } from "./vat-numbers";
import { checkVatNumber, type ViesDeps } from "./vies.server";

export type BuyerVatOutcome =
  /** Nothing to confirm: no number, a seller outside the EU, a buyer at home or outside the EU. */
  | { kind: "not-asked" }
  | { kind: "refused"; error: string }
  | {
      kind: "checked";
      status: Exclude<VatNumberStatus, "invalid">;
      number: string;
      checkedAt: Date | null;
      requestId: string | null;
      /** Kept from an earlier confirmation (VIES not asked again). */
      kept: boolean;
    };

export function vatRefusal(number: string): string {
  return `The EU's VIES service does not know ${number} as a registered VAT number: check it, or leave the field empty to be invoiced as a consumer.`;
}

export async function confirmBuyerVat(
  deps: { mode: SellerTaxMode; vies: ViesDeps },
  input: { taxId: string | null | undefined; countryCode: string | null | undefined },
  previous: {
    vatCheckedNumber: string | null;
    vatStatus: VatNumberStatus | null;
    vatCheckedAt: Date | null;
    vatRequestId: string | null;
  },
): Promise<BuyerVatOutcome> {
  const { mode } = deps;
  const taxId = input.taxId?.trim();
  if (mode.kind !== "eu-standard" || !taxId) return { kind: "not-asked" };
  const country = input.countryCode ?? null;
  if (!isEuCountry(country) || country === mode.country) return { kind: "not-asked" };
  const parsed = parseVatNumber(taxId, country);
  if (!parsed.ok) return { kind: "refused", error: parsed.error };
  if (previous.vatCheckedNumber === parsed.number && previous.vatStatus === "valid") {
    return {
      kind: "checked",
      status: "valid",
      number: parsed.number,
      checkedAt: previous.vatCheckedAt,
      requestId: previous.vatRequestId,
      kept: true,
    };
  }
  const seller = mode.vatNumber ? parseVatNumber(mode.vatNumber) : null;
  const answer = await checkVatNumber(deps.vies, parsed, seller?.ok ? seller : null);
  if (answer.status === "invalid") return { kind: "refused", error: vatRefusal(parsed.number) };
  if (answer.status === "unavailable") {
    return {
      kind: "checked",
      status: "unconfirmed",
      number: parsed.number,
      checkedAt: null,
      requestId: null,
      kept: false,
    };
  }
  return {
    kind: "checked",
    status: "valid",
    number: parsed.number,
    checkedAt: answer.checkedAt,
    requestId: answer.requestIdentifier,
    kept: false,
  };
}

export function unconfirmedSaved(number: string): string {
  return `Saved. The EU's VIES service could not confirm ${number} just now; we ask again before your next invoice. Until it is confirmed, VAT is charged as for a consumer.`;
}
