/**
 * The contact inbox's read-state filter (pure: the back office's messages page renders it, the inbox's
 * server code applies it).
 */
export const messageFilters = ["all", "unread", "read"] as const;
export type MessageFilter = (typeof messageFilters)[number];
