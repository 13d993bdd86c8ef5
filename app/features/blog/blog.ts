/** Blog types shared by browser and server. */
import { formatDate } from "~/ui/format";
export interface BlogTeaser {
  /** The slug, from the title by the spec's rule; also the teaser's id. */
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  /** ISO date, YYYY-MM-DD. */
  date: string;
  readTime: string;
  category: string;
  /** A local image under /blog/, 1200x630. */
  image: string;
  /** A CSS gradient behind the image. */
  gradient: string;
}

export interface BlogArticle extends BlogTeaser {
  /** The body rendered to HTML on the server, from the site's own Markdown files. */
  html: string;
}

export const BLOG_IMAGE_WIDTH = 1200;
export const BLOG_IMAGE_HEIGHT = 630;

/** "January 15, 2025", fixed to UTC so server and browser render the same text. */
export function formatArticleDate(isoDate: string): string {
  return formatDate(`${isoDate}T00:00:00Z`, "long");
}
