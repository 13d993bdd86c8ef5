/**
 * The blog's slug rule (public-site.md §2): the lowercased title with each run of non-alphanumeric
 * characters turned into one hyphen, and leading and trailing hyphens trimmed.
 */
export function blogSlug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
