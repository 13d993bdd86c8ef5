/** The contact inbox's filters (pure: the back office's page renders them, the server applies them). */
export const messageFilters = ["all", "unread", "read"] as const;
export type MessageFilter = (typeof messageFilters)[number];
