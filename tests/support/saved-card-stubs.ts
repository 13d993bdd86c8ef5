import type { SavedCardProvider } from "~/features/payments/provider";

/** The saved-card half of a provider, for fake providers in tests that never use it: each call throws. */
export const savedCardsNotUsed: SavedCardProvider = {
  async createCustomer() {
    throw new Error("saved cards are not used here");
  },
  async createCardSetup() {
    throw new Error("saved cards are not used here");
  },
  async savedCardOf() {
    throw new Error("saved cards are not used here");
  },
  async chargeSavedCard() {
    throw new Error("saved cards are not used here");
  },
};
