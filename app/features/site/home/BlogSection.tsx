import { Link } from "react-router";
import {
  BLOG_IMAGE_HEIGHT,
  BLOG_IMAGE_WIDTH,
  type BlogTeaser,
  formatArticleDate,
} from "~/features/blog/blog";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import { NewsletterBox } from "./NewsletterBox";

export function BlogTeaserCard({ post }: { post: BlogTeaser }) {
  return (
    <article className="flex flex-col overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <div style={{ backgroundImage: post.gradient }}>
        <img
          src={post.image}
          alt=""
          width={BLOG_IMAGE_WIDTH}
          height={BLOG_IMAGE_HEIGHT}
          loading="lazy"
          decoding="async"
          className="aspect-[1200/630] h-auto w-full"
        />
      </div>
      <div className="flex flex-1 flex-col p-6">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{post.category}</p>
        <h3 className="mt-2 text-lg font-semibold">
          <Link to={`/blog/${post.slug}`} className="hover:text-brand-700 hover:underline">
            {post.title}
          </Link>
        </h3>
        <p className="mt-2 flex-1 text-sm text-slate-600">{post.excerpt}</p>
        <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          <span>{post.author}</span>
          <span className="inline-flex items-center gap-1">
            <Icon name="calendar-days" className="size-3.5" />
            <time dateTime={post.date}>{formatArticleDate(post.date)}</time>
          </span>
          <span className="inline-flex items-center gap-1">
            <Icon name="clock" className="size-3.5" />
            {post.readTime}
          </span>
        </p>
      </div>
    </article>
  );
}

/** The six teasers and the newsletter box. */
export function BlogSection({ posts }: { posts: BlogTeaser[] }) {
  return (
    <section id="blog" aria-labelledby="blog-heading" className="bg-slate-50 py-20">
      <Container>
        <h2 id="blog-heading" className="text-3xl font-bold tracking-tight">
          Blog
        </h2>
        <p className="mt-3 max-w-2xl text-slate-600">Guides and comparisons from real projects.</p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post) => (
            <li key={post.id} className="flex">
              <BlogTeaserCard post={post} />
            </li>
          ))}
        </ul>
        <NewsletterBox />
      </Container>
    </section>
  );
}
