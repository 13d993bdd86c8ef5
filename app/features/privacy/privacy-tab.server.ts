/**
 * What the profile's Privacy tab shows before its forms (issue 37, item 11): how many data exports are
 * left today, and what would refuse "Delete my account" now, each blocker named.
 */
import type { Database } from "~/db/client.server";
import type { PrivacyTabData } from "./account-deletion";
import { dataExportsLeft } from "./data-export.server";
import { deletionBlockers } from "./deletion-orders.server";

export async function privacyTabData(db: Database, clientId: string): Promise<PrivacyTabData> {
  return {
    exportsLeft: await dataExportsLeft(db, clientId),
    deletionBlockers: await deletionBlockers(db, clientId),
  };
}
