import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/dashboard";
import { usePortalData } from "./shell";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Dashboard", matches) }];

export default function Dashboard() {
  const { client } = usePortalData();
  return (
    <div className="p-6 lg:p-10">
      <section className="rounded-2xl bg-gradient-to-r from-brand-700 to-brand-600 p-8 text-white">
        <h1 className="text-2xl font-bold">Welcome back, {client.name}!</h1>
        <p className="mt-2 text-brand-50">Here is what is happening with your services.</p>
      </section>
    </div>
  );
}
