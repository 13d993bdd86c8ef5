import { describe, expect, it } from "vitest";
import { sessionAnswerFrom } from "./session-answer";

const currency = {
  currency: "EUR",
  rates: { USD: 1, EUR: 0.92 },
  location: { country_code: "DE", country_name: "Germany", currency: "EUR" },
};

describe("the /api/session answer as the browser reads it (ADR 0822)", () => {
  it("takes a signed-in or a signed-out answer, the dashboard from the role", () => {
    expect(sessionAnswerFrom({ signedIn: false, currency })).toEqual({ signedIn: false, currency });
    expect(
      sessionAnswerFrom({ signedIn: true, name: "Ada", role: "admin", dashboard: "/elsewhere", currency }),
    ).toEqual({ signedIn: true, name: "Ada", role: "admin", dashboard: "/admin/dashboard", currency });
  });

  it("refuses anything else, so the page stays as it is", () => {
    for (const body of [
      null,
      "signed in",
      [],
      { signedIn: true, name: "Ada", role: "owner", currency },
      { signedIn: true, role: "client", currency },
      { signedIn: "yes", currency },
      { signedIn: false },
      { signedIn: false, currency: { ...currency, currency: "eur" } },
      { signedIn: false, currency: { ...currency, rates: { EUR: -1 } } },
      { signedIn: false, currency: { ...currency, rates: { euro: 1 } } },
      { signedIn: false, currency: { ...currency, location: { country_code: "DEU" } } },
    ]) {
      expect(sessionAnswerFrom(body), JSON.stringify(body)).toBeNull();
    }
  });
});
