import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { cardClass } from "./card-class";

/** A titled section of a page in a card. */
export function Card({
  title,
  className,
  children,
  ...props
}: Omit<ComponentProps<"section">, "title"> & { title?: ReactNode }) {
  return (
    <section className={cardClass("p-5", className)} {...props}>
      {title && <h2 className="mb-3 text-lg font-bold">{title}</h2>}
      {children}
    </section>
  );
}

/** A figure with its label (and a note beneath); with `href`, the whole card links to its list. */
export function StatCard({
  label,
  value,
  note,
  href,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  href?: string;
}) {
  const body = (
    <>
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-ink tabular-nums">{value}</p>
      {note && <p className="mt-1 text-sm text-slate-600">{note}</p>}
    </>
  );
  if (!href) return <div className={cardClass("p-5")}>{body}</div>;
  return (
    <Link to={href} className={cardClass("block p-5 hover:border-brand-600")}>
      {body}
    </Link>
  );
}
