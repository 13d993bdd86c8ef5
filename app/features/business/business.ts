/** The business's public identity: configuration, shown wherever the spec writes {email} and the like. */
export interface BusinessIdentity {
  name: string;
  legalName: string;
  email: string;
  phone: string;
  /** Digits only, with the country code, as wa.me links want it. */
  whatsapp: string;
  address: string;
  /** BUSINESS_TAX_ID: printed on invoices as "VAT/Tax ID" when set. */
  taxId?: string;
  hours: { weekdays: string; saturday: string; sunday: string; emergency: string };
  social: { linkedin?: string; twitter?: string; facebook?: string; github?: string };
}

export function whatsappLink(business: BusinessIdentity, text?: string): string {
  const query = text ? `?text=${encodeURIComponent(text)}` : "";
  return `https://wa.me/${business.whatsapp}${query}`;
}

export function phoneLink(business: BusinessIdentity): string {
  return `tel:${business.phone.replace(/[^\d+]/g, "")}`;
}
