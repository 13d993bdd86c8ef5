import { data, Link } from "react-router";
import { BLOG_IMAGE_HEIGHT, BLOG_IMAGE_WIDTH, formatArticleDate } from "~/features/blog/blog";
import { getArticle } from "~/features/blog/blog.server";
import { ShareButtons } from "~/features/blog/ShareButtons";
import { JsonLd } from "~/features/site/JsonLd";
import { absoluteUrl, seo } from "~/features/site/seo";
import { articleJsonLd } from "~/features/site/structured-data";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import type { Route } from "./+types/blog-post";

export function loader({ params, context }: Route.LoaderArgs) {
  const { config } = context.runtime;
  const article = getArticle(params.slug);
  if (!article) return data({ article: null, url: "", jsonLd: null }, { status: 404 });
  return {
    article,
    url: absoluteUrl(config.publicUrl, `/blog/${article.slug}`),
    jsonLd: articleJsonLd(article, config.business, config.publicUrl),
  };
}

export const meta: Route.MetaFunction = ({ data, matches, params }) => {
  const article = data?.article;
  if (!article) {
    return [
      ...seo({
        title: "Blog Post Not Found",
        description: "This article does not exist.",
        path: `/blog/${params.slug}`,
        matches,
      }),
      { name: "robots", content: "noindex" },
    ];
  }
  return seo({
    title: article.title,
    description: article.excerpt,
    path: `/blog/${article.slug}`,
    matches,
    type: "article",
    image: article.image,
  });
};

const PROSE =
  "max-w-none text-slate-800 leading-7 [&_a]:text-brand-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-4 [&_pre]:mt-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6";

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { article, url, jsonLd } = loaderData;
  if (!article) {
    return (
      <Container className="py-24 text-center">
        <h1 className="text-3xl font-bold">Blog Post Not Found</h1>
        <p className="mt-4 text-slate-600">The article you are looking for does not exist or has moved.</p>
        <Link to="/" className={buttonClass("primary", "mt-8")}>
          Return to Home
        </Link>
      </Container>
    );
  }
  return (
    <Container className="py-12">
      {jsonLd && <JsonLd data={jsonLd} />}
      <Link
        to="/#blog"
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <Icon name="arrow-left" className="size-4" /> Back to Blog
      </Link>
      <div className="mt-6 grid gap-12 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <article>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{article.category}</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{article.title}</h1>
          <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600">
            <span className="inline-flex items-center gap-1">
              <Icon name="user" className="size-4" /> {article.author}
            </span>
            <span className="inline-flex items-center gap-1">
              <Icon name="calendar-days" className="size-4" />
              <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
            </span>
            <span className="inline-flex items-center gap-1">
              <Icon name="clock" className="size-4" /> {article.readTime}
            </span>
          </p>
          <div className="mt-8 overflow-hidden rounded-2xl" style={{ backgroundImage: article.gradient }}>
            <img
              src={article.image}
              alt={`Illustration for “${article.title}”`}
              width={BLOG_IMAGE_WIDTH}
              height={BLOG_IMAGE_HEIGHT}
              className="aspect-[1200/630] h-auto w-full"
            />
          </div>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: HTML rendered on the server from our own Markdown files. */}
          <div className={`mt-8 ${PROSE}`} dangerouslySetInnerHTML={{ __html: article.html }} />
          <div className="mt-12 border-t border-slate-200 pt-6">
            <ShareButtons url={url} title={article.title} />
          </div>
        </article>
        <aside aria-label="Related" className="space-y-6">
          <div className="rounded-2xl bg-brand-50 p-6">
            <h2 className="font-bold">Need help with email migration?</h2>
            <p className="mt-2 text-sm text-slate-600">Every mailbox moved with zero downtime.</p>
            <Link to="/services/email-migration" className={buttonClass("primary", "mt-4 w-full")}>
              Email Migration Service
            </Link>
          </div>
          <div className="rounded-2xl border border-slate-200 p-6">
            <h2 className="font-bold">Have a project in mind?</h2>
            <p className="mt-2 text-sm text-slate-600">Get a custom quote within 24 hours.</p>
            <Link to="/#quote" className={buttonClass("secondary", "mt-4 w-full")}>
              Get Free Quote
            </Link>
          </div>
        </aside>
      </div>
    </Container>
  );
}
