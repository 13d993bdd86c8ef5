/**
 * A care plan's form in the back office (ADR 0530): name, address, description, included lines, the
 * monthly and yearly USD prices, the incident allowance, watched domains, order and whether the site
 * shows it. Uncontrolled inputs: after a refused save they show what was sent, each with its error;
 * after a save, the saved values (the form's key changes).
 */
import { Form } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextAreaField, TextField } from "~/ui/field";
import type { FieldErrors } from "~/ui/form";

export function PlanForm({
  formKey,
  values,
  errors,
  isNew,
}: {
  /** Changes after a save, so the fields show the saved values. */
  formKey: string;
  values: Record<string, string>;
  errors: FieldErrors;
  isNew: boolean;
}) {
  return (
    <Form method="post" key={formKey} className="space-y-6" noValidate>
      <input type="hidden" name="intent" value="save" />
      <Card title="Plan">
        <div className="space-y-4">
          <TextField label="Name" name="name" defaultValue={values.name} error={errors.name} required />
          <TextField
            label="Address"
            name="slug"
            defaultValue={values.slug}
            error={errors.slug}
            hint={
              isNew
                ? "Lowercase letters, digits and hyphens; left empty, it is made from the name."
                : "Changing it changes the plan's links."
            }
          />
          <TextAreaField
            label="Description"
            name="description"
            rows={3}
            defaultValue={values.description}
            error={errors.description}
          />
          <TextAreaField
            label="What is included (one per line)"
            name="included"
            rows={6}
            defaultValue={values.included}
            error={errors.included}
          />
        </div>
      </Card>
      <Card title="Prices and allowances">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Monthly price (USD)"
            name="monthlyPrice"
            inputMode="decimal"
            defaultValue={values.monthlyPrice}
            error={errors.monthlyPrice}
            hint="Empty: not sold monthly."
          />
          <TextField
            label="Yearly price (USD)"
            name="yearlyPrice"
            inputMode="decimal"
            defaultValue={values.yearlyPrice}
            error={errors.yearlyPrice}
            hint="Empty: not sold yearly."
          />
          <TextField
            label="Support incidents included per period"
            name="incidentAllowance"
            inputMode="numeric"
            defaultValue={values.incidentAllowance}
            error={errors.incidentAllowance}
          />
          <TextField
            label="Domains watched"
            name="watchedDomains"
            inputMode="numeric"
            defaultValue={values.watchedDomains}
            error={errors.watchedDomains}
          />
          <TextField
            label="Order on the site"
            name="sortOrder"
            inputMode="numeric"
            defaultValue={values.sortOrder}
            error={errors.sortOrder}
            hint="Lower numbers come first."
          />
          <div className="flex items-center gap-2 self-end pb-2">
            <input
              id="plan-active"
              type="checkbox"
              name="active"
              defaultChecked={values.active === "on" || values.active === "true"}
              className="size-4"
            />
            <label htmlFor="plan-active" className="text-sm font-medium text-slate-800">
              Shown on the site (active)
            </label>
          </div>
        </div>
      </Card>
      <Button type="submit">{isNew ? "Create plan" : "Save changes"}</Button>
    </Form>
  );
}
