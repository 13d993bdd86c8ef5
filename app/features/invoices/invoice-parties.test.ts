import { describe, expect, it } from "vitest";
import { TEST_BUSINESS } from "~/features/testing/memory-database.server";
import {
  buyerSnapshot,
  InvalidInvoiceSnapshot,
  readBuyer,
  readSeller,
  sellerSnapshot,
} from "./invoice-parties";

const client = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 20 7946 0958",
  company: "  ",
  address: "1 Analytical Way, London",
  country: "United Kingdom",
  taxId: "GB123456789",
  countryCode: "GB",
  buyerReference: " 04011000-12345-03 ",
};

describe("buyerSnapshot and sellerSnapshot", () => {
  it("copies the client's billing details, blanks as null", () => {
    expect(buyerSnapshot(client)).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      company: null,
      address: "1 Analytical Way, London",
      country: "United Kingdom",
      taxId: "GB123456789",
      phone: "+44 20 7946 0958",
      countryCode: "GB",
      reference: "04011000-12345-03",
    });
    expect(buyerSnapshot({ name: "Bo", email: "bo@example.com", phone: null, company: null })).toEqual({
      name: "Bo",
      email: "bo@example.com",
      company: null,
      address: null,
      country: null,
      taxId: null,
      phone: null,
      countryCode: null,
      reference: null,
    });
  });

  it("copies the business settings, with the tax id when set", () => {
    expect(sellerSnapshot({ ...TEST_BUSINESS, taxId: "DE811907980" })).toEqual({
      name: "Portico",
      legalName: "Portico Ltd",
      address: "1 Main St",
      email: "owner@portico.test",
      phone: "+1 555 0100",
      taxId: "DE811907980",
      countryCode: null,
      taxNumber: null,
      registrationId: null,
    });
    expect(sellerSnapshot(TEST_BUSINESS).taxId).toBeNull();
    // The e-invoice's identifiers (issue 40): the country, tax number and registration id configured.
    expect(
      sellerSnapshot(TEST_BUSINESS, {
        mode: { country: "DE" },
        taxNumber: "12/345/67890",
        registrationId: "HRB 12345",
      }),
    ).toMatchObject({ countryCode: "DE", taxNumber: "12/345/67890", registrationId: "HRB 12345" });
  });
});

describe("readBuyer and readSeller", () => {
  const frozenBuyer = buyerSnapshot(client);
  const frozenSeller = sellerSnapshot({ ...TEST_BUSINESS, legalName: "Old Legal Name", taxId: "OLD-1" });

  it("return the stored copy, whatever the profile and settings say now", () => {
    const now = { ...client, address: "2 New Road", taxId: "GB999" };
    expect(readBuyer(frozenBuyer, now)).toEqual(frozenBuyer);
    expect(readSeller(frozenSeller, { ...TEST_BUSINESS, taxId: "NEW-2" })).toEqual(frozenSeller);
  });

  it("fall back to the current client and settings where no copy was made", () => {
    expect(readBuyer(null, client)).toEqual(frozenBuyer);
    expect(readSeller(null, TEST_BUSINESS)).toEqual(sellerSnapshot(TEST_BUSINESS));
  });

  it("refuse a stored copy that is not one", () => {
    expect(() => readBuyer({ name: "Ada" }, client)).toThrow(InvalidInvoiceSnapshot);
    expect(() => readBuyer("Ada", client)).toThrow(InvalidInvoiceSnapshot);
    expect(() => readSeller({ ...frozenSeller, taxId: 42 }, TEST_BUSINESS)).toThrow(/stored seller/);
  });
});
