import { Form } from "react-router";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";

/** The back office's invoice actions: mark paid by bank transfer, resend, void (each its own form). */
export function InvoiceActions({ status }: { status: string }) {
  const open = isUnpaidOrOverdue(status);
  return (
    <>
      {open && (
        <Card title="Mark paid by bank transfer">
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="mark-paid" />
            <TextField
              label="Bank transfer reference"
              name="reference"
              required
              minLength={2}
              maxLength={200}
              className="w-72"
            />
            <Button type="submit">Mark paid</Button>
          </Form>
        </Card>
      )}
      <Card title="Other actions">
        <div className="flex flex-wrap items-end gap-6">
          {status !== "void" && (
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <Button type="submit" variant="secondary">
                Resend by email
              </Button>
            </Form>
          )}
          {open && (
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="void" />
              <TextField
                label="Reason for voiding (optional)"
                name="reason"
                maxLength={500}
                className="w-72"
              />
              <Button type="submit" variant="secondary">
                Void invoice
              </Button>
            </Form>
          )}
          {status === "void" && (
            <p className="text-sm text-slate-600">This invoice is void. It keeps its number.</p>
          )}
        </div>
      </Card>
    </>
  );
}
