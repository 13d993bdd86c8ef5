import type { ReactNode } from "react";

/** A signed-in page (portal or back office): its title, actions beside it, then its content. */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-6 p-4 sm:p-6 lg:p-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
