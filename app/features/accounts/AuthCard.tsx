import type { ReactNode } from "react";
import { Link } from "react-router";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";

/** The frame of the sign-in, registration and verification screens (no site chrome under /client/). */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    // Top-aligned, not centred: a centred card moves up while a slow parse is still adding to it (a layout
    // shift Lighthouse measured at 0.05 on /client/login); from the top it only grows downwards.
    <div className="flex min-h-screen items-start justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-12 sm:pt-24">
      <div className="w-full max-w-md">
        <Link to="/" className="mx-auto flex w-fit items-center gap-2 text-lg font-bold text-ink">
          <span className="grid size-9 place-items-center rounded-lg bg-brand-600 text-white">
            <Icon name="server" className="size-5" />
          </span>
          <span className="sr-only">Home</span>
        </Link>
        <div className={cardClass("mt-6 rounded-2xl p-8")}>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {subtitle && <div className="mt-2 text-sm text-slate-600">{subtitle}</div>}
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </div>
  );
}
