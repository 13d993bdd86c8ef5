import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeVies, startFakeVies } from "../../../tests/support/fake-vies";
import { checkVatNumber } from "./vies.server";

let vies: FakeVies;
beforeAll(async () => {
  vies = await startFakeVies();
  vies.numbers.set("FRXX123456789", "valid");
  vies.numbers.set("DE999999999", "unavailable");
  vies.numbers.set("IT12345678901", "slow");
  vies.numbers.set("NL123456789B01", "broken");
});
afterAll(async () => {
  await vies?.close();
});

const seller = { prefix: "DE", body: "123456789" };

describe("checkVatNumber against a fake VIES on loopback", () => {
  it("confirms a registered number with its request identifier, the requester being the seller", async () => {
    const answer = await checkVatNumber({ url: vies.url }, { prefix: "FR", body: "XX123456789" }, seller);
    expect(answer).toMatchObject({ status: "valid", name: "Acme SARL" });
    if (answer.status !== "valid") throw new Error("not valid");
    expect(answer.requestIdentifier).toMatch(/^WAPIAAAAW\d+$/);
    expect(answer.checkedAt).toBeInstanceOf(Date);
    expect(vies.requests.at(-1)).toEqual({
      countryCode: "FR",
      vatNumber: "XX123456789",
      requesterMemberStateCode: "DE",
      requesterNumber: "123456789",
    });
  });

  it("says invalid for a number VIES does not know, without a trader's name", async () => {
    expect(
      await checkVatNumber({ url: vies.url }, { prefix: "ES", body: "A1234567B" }, seller),
    ).toMatchObject({
      status: "invalid",
      name: null,
      requestIdentifier: null,
    });
  });

  it("says unavailable, never invalid, when VIES or the member state cannot answer", async () => {
    expect(await checkVatNumber({ url: vies.url }, { prefix: "DE", body: "999999999" }, null)).toEqual({
      status: "unavailable",
      reason: "VIES answered MS_UNAVAILABLE",
    });
    expect(
      await checkVatNumber({ url: vies.url, timeoutMs: 200 }, { prefix: "IT", body: "12345678901" }, seller),
    ).toEqual({ status: "unavailable", reason: "VIES did not answer in time" });
    expect(await checkVatNumber({ url: vies.url }, { prefix: "NL", body: "123456789B01" }, seller)).toEqual({
      status: "unavailable",
      reason: "VIES answered HTTP 500",
    });
    expect(
      await checkVatNumber({ url: "http://127.0.0.1:9" }, { prefix: "FR", body: "XX123456789" }, seller),
    ).toEqual({
      status: "unavailable",
      reason: "VIES could not be reached",
    });
  });
});
