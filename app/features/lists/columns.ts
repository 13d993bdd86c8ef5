/**
 * A list's rows in a page's loader data as columns: each field's values in one array, instead of one
 * object a row. React Router's serializer (turbo-stream) writes an object's keys again with every
 * object, so a 50-row list of ten fields carried its field names 500 times, about 100 bytes a row
 * besides the values; as columns they are written once. Values cost the same either way (a string that
 * repeats, a day or a status, is written once and referred to). docs/decisions/0821-fewer-bytes-icon-sprite.md.
 *
 * The loader returns `toColumns(rows)`, the page renders `fromColumns(loaderData.rows)`: the same rows,
 * typed as the loader made them.
 */

export type Columns<Row> = { [K in keyof Row]: Row[K][] };

/** The rows as columns. Every row has the same fields (the rows of one `map`); none gives `{}`. */
export function toColumns<Row extends object>(rows: readonly Row[]): Columns<Row> {
  const columns: Partial<Columns<Row>> = {};
  const keys = rows.length > 0 ? (Object.keys(rows[0]!) as (keyof Row)[]) : [];
  for (const key of keys) columns[key] = rows.map((row) => row[key]);
  return columns as Columns<Row>;
}

/** The rows back from their columns, in their order. */
export function fromColumns<Row extends object>(columns: Columns<Row>): Row[] {
  const keys = Object.keys(columns) as (keyof Row)[];
  const count = keys.length > 0 ? columns[keys[0]!].length : 0;
  return Array.from({ length: count }, (_, i) => {
    const row = {} as Row;
    for (const key of keys) row[key] = columns[key][i]!;
    return row;
  });
}
