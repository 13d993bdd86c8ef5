/**
 * What the order pages (the client's and the owner's) write where an incident covered by a care plan
 * would show its amount (issue 38, item 6). Pure: shared by both pages.
 */
export const coveredByLabel = (planName: string): string => `Covered by ${planName}`;
