/**
 * What `npm run bench` (bench/run.ts) and the CPU-per-request measure (bench/cpu.ts) share: seeding a
 * client's orders and invoices, and reading a V8 CPU profile.
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

export type Row = Record<string, string | number>;

export const ms = (n: number) => Math.round(n * 10) / 10;

/** A client with `count` paid orders and their invoices, written with two set-based statements. */
export async function addOrders(
  db: Database,
  clientId: string,
  count: number,
  seqFrom: number,
): Promise<number> {
  const year = new Date().getUTCFullYear();
  await db.execute(sql`
    insert into orders (client_id, service_id, service_name, service_category, package, package_name,
      quantity, unit_price_usd, amount_usd, currency, amount_in_currency, exchange_rate, status, paid_at,
      created_at, updated_at)
    select ${clientId}, s.id, s.name, s.category, s.package_order[1], s.package_order[1], 1,
      (s.pricing->>(s.package_order[1]))::numeric, (s.pricing->>(s.package_order[1]))::numeric, 'USD',
      (s.pricing->>(s.package_order[1]))::numeric, 1, 'paid', now() - g * interval '1 minute',
      now() - g * interval '1 minute', now() - g * interval '1 minute'
    from generate_series(1, ${count}) g
    cross join (select * from services order by sort_order limit 1) s`);
  await db.execute(sql`
    insert into invoices (invoice_number, invoice_year, invoice_seq, client_id, order_id, status, currency,
      subtotal, total_amount, amount_usd, exchange_rate, due_date, paid_at, created_at, updated_at)
    select 'INV-' || ${year} || '-' || lpad((${seqFrom} + n)::text, 6, '0'), ${year}, ${seqFrom} + n,
      client_id, id, 'paid', 'USD', amount_usd, amount_usd, amount_usd, 1, created_at + interval '14 days',
      paid_at, created_at, created_at
    from (select o.*, row_number() over (order by created_at) as n from orders o
          where client_id = ${clientId}
            and not exists (select 1 from invoices i where i.order_id = o.id)) x`);
  const next = seqFrom + count;
  await db.execute(sql`
    insert into invoice_counters (year, last_seq) values (${year}, ${next})
    on conflict (year) do update set last_seq = greatest(invoice_counters.last_seq, ${next})`);
  return next;
}

/** Self time by function (name and file) and by package, from a V8 .cpuprofile. */
export function summarizeProfile(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}): { functions: Row[]; packages: Row[]; busyMs: number; idleMs: number } {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  const cwd = `file://${process.cwd()}/`;
  for (const [id, us] of self) {
    const frame = frames.get(id)!;
    if (frame.functionName === "(idle)") {
      idle += us;
      continue;
    }
    busy += us;
    const file = frame.url.replace(cwd, "");
    const name = `${frame.functionName || "(anonymous)"}${file ? ` ${file}:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const area = pkg
      ? pkg
      : file.startsWith("build/")
        ? "build (the app)"
        : file.startsWith("node:")
          ? "node: internals"
          : file || frame.functionName;
    byPackage.set(area, (byPackage.get(area) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number, key: string) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ [key]: name, "self ms": ms(us / 1000), "% of busy": ms((100 * us) / busy) }));
  return {
    functions: top(byFunction, 25, "function"),
    packages: top(byPackage, 15, "package"),
    busyMs: ms(busy / 1000),
    idleMs: ms(idle / 1000),
  };
}
