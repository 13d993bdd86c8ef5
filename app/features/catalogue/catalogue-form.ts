/**
 * The catalogue edit form: a service's name, description, and each package's USD price and features
 * (one per line). One zod schema, used by the server (and safe for the browser: pure).
 */
import { z } from "zod";

export const MAX_PRICE_USD = 1_000_000;

const price = z
  .string()
  .trim()
  .min(1, { message: "Enter a price" })
  .regex(/^\d+(\.\d{1,2})?$/, { message: "Enter a price in US dollars, e.g. 149 or 149.50" })
  .transform(Number)
  .pipe(
    z
      .number()
      .min(0)
      .max(MAX_PRICE_USD, { message: `The price must be at most ${MAX_PRICE_USD}` }),
  );

/**
 * A textarea of one item per line (blank lines dropped, each line trimmed), each at most 200 characters:
 * a package's features here, a care plan's included lines (plans/plan-form.ts).
 */
export function linesField(maxLines: number, messages: { tooLong: string; none: string; tooMany: string }) {
  return z
    .string()
    .transform((v) =>
      v
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().max(200, { message: messages.tooLong }))
        .min(1, { message: messages.none })
        .max(maxLines, { message: messages.tooMany }),
    );
}

const features = linesField(30, {
  tooLong: "Each feature must be at most 200 characters",
  none: "List at least one feature",
  tooMany: "List at most 30 features",
});

export interface CatalogueEdit {
  name: string;
  description: string;
  pricing: Record<string, number>;
  features: Record<string, string[]>;
}

export type CatalogueFormResult =
  | { ok: true; value: CatalogueEdit }
  | { ok: false; errors: Record<string, string> };

/** Reads `name`, `description`, `price.<package>` and `features.<package>` for the service's packages. */
export function parseCatalogueForm(
  form: FormData | URLSearchParams,
  packages: string[],
): CatalogueFormResult {
  const shape: Record<string, z.ZodType> = {
    name: z
      .string()
      .trim()
      .min(2, { message: "Enter a name" })
      .max(100, { message: "At most 100 characters" }),
    description: z
      .string()
      .trim()
      .min(10, { message: "Enter a description of at least 10 characters" })
      .max(2000, { message: "At most 2000 characters" }),
  };
  for (const p of packages) {
    shape[`price.${p}`] = price;
    shape[`features.${p}`] = features;
  }
  const raw: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const v = form.get(key);
    raw[key] = typeof v === "string" ? v : "";
  }
  const parsed = z.object(shape).safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      errors[key] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const data = parsed.data as Record<string, unknown>;
  const value: CatalogueEdit = {
    name: data.name as string,
    description: data.description as string,
    pricing: {},
    features: {},
  };
  for (const p of packages) {
    value.pricing[p] = data[`price.${p}`] as number;
    value.features[p] = data[`features.${p}`] as string[];
  }
  return { ok: true, value };
}
