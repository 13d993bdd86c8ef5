import { describe, expect, it } from "vitest";
import { blogSlug } from "./slug";

describe("blogSlug", () => {
  it("lowercases and joins words with hyphens", () => {
    expect(blogSlug("The Complete Email Migration Guide")).toBe("the-complete-email-migration-guide");
  });
  it("turns each run of non-alphanumerics into one hyphen", () => {
    expect(blogSlug("SPF, DKIM and DMARC Explained: Stop Spam")).toBe(
      "spf-dkim-and-dmarc-explained-stop-spam",
    );
    expect(blogSlug("cPanel vs. Plesk -- which?")).toBe("cpanel-vs-plesk-which");
  });
  it("trims leading and trailing hyphens", () => {
    expect(blogSlug("  ¿Google Workspace vs Microsoft 365?  ")).toBe("google-workspace-vs-microsoft-365");
  });
  it("keeps digits and treats accented letters as separators", () => {
    expect(blogSlug("Top 10 Tips for 2025")).toBe("top-10-tips-for-2025");
    expect(blogSlug("Café Migration")).toBe("caf-migration");
  });
  it("gives an empty slug for a title without letters or digits", () => {
    expect(blogSlug("!!!")).toBe("");
  });
});
