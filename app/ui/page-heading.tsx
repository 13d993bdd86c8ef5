import type { ReactNode } from "react";
import { Container } from "./container";

/** A page's title block. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Container className="py-16">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {children && <div className="mt-4 max-w-2xl text-slate-600">{children}</div>}
    </Container>
  );
}
