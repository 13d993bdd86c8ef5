/**
 * A service's form in the catalogue: its name, description, and each package's USD price and features.
 * After a refused save the fields show what was sent, each with its error; after a save, the saved
 * values (the page gives a new `key`).
 */
import { Form } from "react-router";
import type { services } from "~/db/schema";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
import type { FieldErrors } from "~/ui/form";

type Service = typeof services.$inferSelect;

export function CatalogueServiceForm({
  service: s,
  errors,
  values,
}: {
  service: Service;
  errors: FieldErrors;
  values: Record<string, string> | null;
}) {
  const value = (key: string, fallback: string) => values?.[key] ?? fallback;
  // A successful save changes the key, so the uncontrolled fields show the saved values.
  const formKey = `${s.updatedAt}`;
  return (
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
  );
}
