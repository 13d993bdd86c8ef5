import { data, Link } from "react-router";
import { pageTitle } from "~/features/site/meta";
import { Container } from "~/ui/container";
import type { Route } from "./+types/blog-post";

// The blog feature adds the six articles; until then every slug is unknown.
export function loader() {
  return data({ post: null }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Blog Post Not Found", matches) },
];

export default function BlogPost() {
  return (
    <Container className="py-24 text-center">
      <h1 className="text-3xl font-bold">Blog Post Not Found</h1>
      <Link to="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        Return to Home
      </Link>
    </Container>
  );
}
