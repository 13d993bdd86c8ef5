import { data } from "react-router";
import { pageTitle } from "~/features/site/meta";
import { NotFoundContent } from "~/features/site/NotFound";
import type { Route } from "./+types/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Page not found", matches) },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return <NotFoundContent />;
}
