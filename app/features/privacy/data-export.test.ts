import { describe, expect, it } from "vitest";
import {
  DATA_EXPORT_FILES,
  DATA_EXPORT_LIMIT_MESSAGE,
  dataExportFileName,
  dataExportLimitKey,
  dataExportReadme,
} from "./data-export";

const NOW = new Date("2026-11-24T21:30:00.000Z");

describe("data export names and README", () => {
  it("names the client's zip by the day, the owner's with the client id made safe", () => {
    expect(dataExportFileName(NOW, "client", "abc")).toBe("my-data-2026-11-24.zip");
    expect(dataExportFileName(NOW, "owner", "aB3_-x")).toBe("client-data-aB3_-x-2026-11-24.zip");
    expect(dataExportFileName(NOW, "owner", 'a"b/c')).toBe("client-data-a_b_c-2026-11-24.zip");
  });

  it("counts the client's exports and the owner's apart", () => {
    expect(dataExportLimitKey("u1", "client")).toBe("data-export:client:u1");
    expect(dataExportLimitKey("u1", "owner")).toBe("data-export:owner:u1");
    expect(DATA_EXPORT_LIMIT_MESSAGE).toBe(
      "You can download your data 3 times a day. Please try again tomorrow.",
    );
  });

  it("lists every file and says who asked and when", () => {
    const mine = dataExportReadme({
      businessName: "Portico IT",
      email: "ada@example.com",
      requestedBy: "client",
      createdAt: NOW,
    });
    expect(mine).toContain("Your data at Portico IT");
    expect(mine).toContain("the account ada@example.com, as it was on 2026-11-24T21:30:00.000Z");
    expect(mine).toContain("from the Privacy tab");
    for (const [name] of DATA_EXPORT_FILES) expect(mine).toContain(`  ${name}`);
    const owners = dataExportReadme({
      businessName: "Portico IT",
      email: "ada@example.com",
      requestedBy: "owner",
      createdAt: NOW,
    });
    expect(owners).toContain("prepared by the owner at your request");
    expect(owners).not.toContain("Privacy tab");
  });
});
