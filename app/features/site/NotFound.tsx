import { Link } from "react-router";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";

export function NotFoundContent() {
  return (
    <Container className="py-24 text-center" data-not-found>
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mx-auto mt-4 max-w-md text-slate-600">
        The page you are looking for does not exist or has moved. Try one of these instead.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass("primary")}>
          Return to Home
        </Link>
        <Link to="/#services" className={buttonClass("secondary")}>
          Browse Services
        </Link>
        <Link to="/#contact" className={buttonClass("secondary")}>
          Contact Us
        </Link>
      </div>
    </Container>
  );
}
