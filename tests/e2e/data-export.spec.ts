/**
 * "Download my data" in a browser (issue 25): the profile's Privacy tab (opened by `?tab=privacy` and by
 * its tab) passes axe, and its button downloads the zip, which opens with the client's own profile and
 * every invoice as a PDF.
 */
import AxeBuilder from "@axe-core/playwright";
import { unzipSync } from "fflate";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

/** The bytes of a download. */
async function bytesOf(download: import("@playwright/test").Download): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

test("the Privacy tab's Download my data gives the client's zip", async ({ page }) => {
  const email = await signUp(page, "Dora Download");
  const { orders } = await hook<{ orders: Array<{ invoiceNumber: string }> }>(page.request, "orders", {
    email,
    status: "paid",
    amountUsd: 30,
  });

  // The tab, from the profile's tab list.
  await page.goto("/client/profile");
  await page.getByRole("tab", { name: "Privacy" }).click();
  await expect(page.getByRole("heading", { name: "Download my data" })).toBeVisible();
  // And straight from its address.
  await page.goto("/client/profile?tab=privacy");
  await expect(page.getByRole("tab", { name: "Privacy" })).toHaveAttribute("aria-selected", "true");
  const button = page.getByRole("button", { name: "Download my data" });
  await expect(button).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const downloading = page.waitForEvent("download");
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(await bytesOf(download));
  const profile = JSON.parse(new TextDecoder().decode(files["profile.json"]!)) as {
    account: { email: string };
  };
  expect(profile.account.email).toBe(email);
  expect(Object.keys(files)).toContain("README.txt");
  const pdf = files[`invoices/${orders[0]!.invoiceNumber}.pdf`]!;
  expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
  // The page stays where it was.
  await expect(page).toHaveURL(/\/client\/profile\?tab=privacy$/);
});
