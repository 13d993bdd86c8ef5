import { data, Form, Link } from "react-router";
import { getCatalogueService, updateCatalogueService } from "~/features/admin/catalogue.server";
import { parseCatalogueForm } from "~/features/admin/catalogue-form";
import { adminDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
import { Page } from "~/ui/page";
import type { Route } from "./+types/catalogue-service";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Edit service · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const service = await getCatalogueService(context.runtime.database.db, idParam(params.serviceId));
  if (!service) throw new Response("Not Found", { status: 404 });
  return { service };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminDeps(request, context);
  const id = idParam(params.serviceId);
  const service = await getCatalogueService(deps.db, id);
  if (!service) throw new Response("Not Found", { status: 404 });
  const form = await request.formData();
  const parsed = parseCatalogueForm(form, service.packageOrder);
  if (!parsed.ok) {
    const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
    return data(
      { ok: false as const, error: "Please correct the highlighted fields.", errors: parsed.errors, values },
      400,
    );
  }
  const result = await updateCatalogueService(deps, id, parsed.value);
  if (!result.ok)
    return data({ ...result, errors: {} as Record<string, string>, values: null }, result.status);
  return { ...result, errors: {} as Record<string, string>, values: null };
}

export default function AdminCatalogueService({
  loaderData: { service: s },
  actionData,
}: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? null;
  const value = (key: string, fallback: string) => values?.[key] ?? fallback;
  // A successful save changes the key, so the uncontrolled fields show the saved values.
  const formKey = `${s.updatedAt}`;
  return (
    <Page
      title={`Edit ${s.name}`}
      actions={
        <Link to="/admin/catalogue" className="text-brand-700 underline">
          Catalogue
        </Link>
      }
    >
      <Outcome result={actionData} />
      <Form method="post" key={formKey} className="space-y-6" noValidate>
        <Card title="Service">
          <div className="space-y-4">
            <TextField
              label="Name"
              name="name"
              defaultValue={value("name", s.name)}
              error={errors.name}
              required
            />
            <div>
              <label htmlFor="description" className="block text-sm font-medium text-slate-800">
                Description
              </label>
              <textarea
                id="description"
                name="description"
                rows={4}
                defaultValue={value("description", s.description)}
                aria-invalid={errors.description ? true : undefined}
                aria-describedby={errors.description ? "description-error" : undefined}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
              />
              {errors.description && (
                <p id="description-error" className="mt-1 text-sm text-red-700">
                  {errors.description}
                </p>
              )}
            </div>
            <p className="text-sm text-slate-600">
              Public page:{" "}
              <a className="text-brand-700 underline" href={`/services/${s.slug}`}>
                /services/{s.slug}
              </a>
            </p>
          </div>
        </Card>
        {s.packageOrder.map((p) => {
          const name = s.packageNames[p] ?? p;
          const featuresKey = `features.${p}`;
          return (
            <Card key={p} title={`${name} package`}>
              <div className="grid gap-4 md:grid-cols-[12rem_1fr]">
                <TextField
                  label={`${name} price (USD)`}
                  name={`price.${p}`}
                  inputMode="decimal"
                  defaultValue={value(`price.${p}`, String(s.pricing[p] ?? ""))}
                  error={errors[`price.${p}`]}
                />
                <div>
                  <label htmlFor={`features-${p}`} className="block text-sm font-medium text-slate-800">
                    {name} features (one per line)
                  </label>
                  <textarea
                    id={`features-${p}`}
                    name={featuresKey}
                    rows={5}
                    defaultValue={value(featuresKey, (s.features[p] ?? []).join("\n"))}
                    aria-invalid={errors[featuresKey] ? true : undefined}
                    aria-describedby={errors[featuresKey] ? `features-${p}-error` : undefined}
                    className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
                  />
                  {errors[featuresKey] && (
                    <p id={`features-${p}-error`} className="mt-1 text-sm text-red-700">
                      {errors[featuresKey]}
                    </p>
                  )}
                </div>
              </div>
            </Card>
          );
        })}
        <Button type="submit">Save changes</Button>
      </Form>
    </Page>
  );
}
