/**
 * The owner's view of care plans (issue 38, item 7; ADR 0531 "Owner's view"), shown on /admin/plans:
 * the figures (subscribers, monthly recurring revenue, renewals due), the renewals of the next 30 days,
 * past-due and suspended plans with their last decline, cancellations with their reasons, the plan list
 * with its subscribers and the subscribers' list. The plans feature reads it all (plan-subscribers.server.ts).
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { CarePlan } from "~/db/schema";
import type { Paged } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { MRR_DEFINITION } from "~/features/plans/owner-figures";
import type { PlansOverview, SubscriberRow } from "~/features/plans/plan-subscribers.server";
import { StatusBadge } from "~/ui/badge";
import { Card, StatCard } from "~/ui/card";
import { ListView } from "~/ui/list";
import { DataTable, Td } from "~/ui/table";
import { AdminList } from "./ui";

const linkClass = "text-brand-700 underline";
const cycleName = (cycle: string) => (cycle === "yearly" ? "Yearly" : "Monthly");
const ClientLink = ({ id, name }: { id: string; name: string }) => (
  <Link to={`/admin/clients/${id}`} className={`wrap-anywhere ${linkClass}`}>
    {name}
  </Link>
);

/** Subscribers, MRR (with how it is computed) and the renewals of the next 30 days. */
export function PlanFigures({ figures }: { figures: PlansOverview["figures"] }) {
  const { renewals } = figures;
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-3" data-testid="plan-figures">
      <StatCard
        label="Active subscribers"
        value={String(figures.subscribers)}
        note="Active and past-due plans"
      />
      <StatCard
        label="Monthly recurring revenue"
        value={formatMoney(figures.mrrUsd, "USD")}
        note={MRR_DEFINITION}
      />
      <StatCard
        label="Renewals in the next 30 days"
        value={String(renewals.count)}
        note={`${formatMoney(renewals.totalUsd, "USD")} at the plans' USD prices`}
      />
    </div>
  );
}

/** A card with a table, or its empty state in words; a note when the list shows only its first rows. */
function ShortList({
  title,
  empty,
  caption,
  head,
  shown,
  total,
  cut,
  children,
  testId,
}: {
  title: string;
  empty: string;
  caption: string;
  head: string[];
  shown: number;
  total: number;
  cut?: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card title={title} data-testid={testId}>
      {total === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <>
          <DataTable caption={caption} head={head}>
            {children}
          </DataTable>
          {total > shown && cut && <p className="mt-2 text-sm text-slate-600">{cut}</p>}
        </>
      )}
    </Card>
  );
}

export function RenewalsDue({ renewals }: { renewals: PlansOverview["renewals"] }) {
  return (
    <ShortList
      testId="renewals-due"
      title="Renewals in the next 30 days"
      empty="No plan renews in the next 30 days."
      caption="Renewals due in the next 30 days"
      head={["Client", "Plan", "Cycle", "Renews on", "Amount (USD)"]}
      shown={renewals.rows.length}
      total={renewals.total}
      cut={`The ${renewals.rows.length} soonest of ${renewals.total} renewals.`}
    >
      {renewals.rows.map((r) => (
        <tr key={`${r.subscriptionId}-${r.day}`}>
          <Td>
            <ClientLink id={r.clientId} name={r.clientName} />
          </Td>
          <Td>{r.planName}</Td>
          <Td>{cycleName(r.cycle)}</Td>
          <Td>{r.day}</Td>
          <Td className="tabular-nums">{r.amount}</Td>
        </tr>
      ))}
    </ShortList>
  );
}

export function TroubledPlans({ plans }: { plans: PlansOverview["troubled"] }) {
  return (
    <ShortList
      testId="troubled-plans"
      title="Past due and suspended"
      empty="No plan is past due or suspended."
      caption="Past-due and suspended plans"
      head={["Client", "Plan", "Status", "Since", "Unpaid invoice", "Last decline"]}
      shown={plans.length}
      total={plans.length}
    >
      {plans.map((p) => (
        <tr key={p.id}>
          <Td>
            <ClientLink id={p.clientId} name={p.clientName} />
          </Td>
          <Td>{p.planName}</Td>
          <Td>
            <StatusBadge status={p.status} label={p.statusLabel} />
          </Td>
          <Td>{p.since}</Td>
          <Td>
            {p.invoice ? (
              <>
                <Link to={`/admin/invoices/${p.invoice.id}`} className={`font-mono ${linkClass}`}>
                  {p.invoice.number}
                </Link>{" "}
                <span className="tabular-nums">{p.invoice.amount}</span>
              </>
            ) : (
              "—"
            )}
          </Td>
          <Td>
            {p.decline ? (
              <>
                {p.decline.words} <span className="text-slate-600">({p.decline.on})</span>
              </>
            ) : (
              "No charge declined"
            )}
          </Td>
        </tr>
      ))}
    </ShortList>
  );
}

export function Cancellations({ cancellations }: { cancellations: PlansOverview["cancellations"] }) {
  return (
    <ShortList
      testId="cancellations"
      title="Cancellations"
      empty="No plan is cancelled or ending."
      caption="Cancelled plans and plans ending at their period's end"
      head={["Client", "Plan", "Status", "Date", "Reason"]}
      shown={cancellations.rows.length}
      total={cancellations.total}
      cut={`The plans ending and the latest cancellations: ${cancellations.rows.length} of ${cancellations.total}.`}
    >
      {cancellations.rows.map((c) => (
        <tr key={c.id}>
          <Td>
            <ClientLink id={c.clientId} name={c.clientName} />
          </Td>
          <Td>{c.planName}</Td>
          <Td>
            <StatusBadge
              status={c.ending ? "ending" : "cancelled"}
              label={c.ending ? "Ends at period end" : "Cancelled"}
            />
          </Td>
          <Td>{c.ending ? `Ends ${c.day}` : c.day}</Td>
          <Td className="wrap-anywhere">
            {c.reason ?? <span className="text-slate-600">No reason given</span>}
          </Td>
        </tr>
      ))}
    </ShortList>
  );
}

const price = (usd: number | null) => (usd === null ? "—" : formatMoney(usd, "USD"));

/** Every plan, active or not, with its active and past-due subscribers. */
export function PlanList({ plans, subscribers }: { plans: CarePlan[]; subscribers: Record<string, number> }) {
  return (
    <ListView
      label="Care plans"
      caption="Care plans"
      head={["Plan", "Monthly", "Yearly", "Incidents per period", "Domains watched", "Subscribers", "Status"]}
    >
      {plans.map((p) => (
        <tr key={p.id}>
          <Td>
            <Link to={`/admin/plans/${p.id}`} className={linkClass}>
              {p.name}
            </Link>
          </Td>
          <Td>{price(p.monthlyPriceUsd)}</Td>
          <Td>{price(p.yearlyPriceUsd)}</Td>
          <Td>{p.incidentAllowance}</Td>
          <Td>{p.watchedDomains}</Td>
          <Td className="tabular-nums">{subscribers[p.id] ?? 0}</Td>
          <Td>{p.active ? "Active" : "Inactive"}</Td>
        </tr>
      ))}
    </ListView>
  );
}

/** Every subscription, newest first, paged at 50 with the list kit, searchable by client or plan. */
export function SubscriberList({ list }: { list: Paged<SubscriberRow> & { q: string } }) {
  return (
    <AdminList
      search="Search subscribers by client, email or plan"
      list={list}
      caption="Subscribers"
      head={["Client", "Plan", "Cycle", "Status", "Started", "Next renewal", "Card"]}
      empty={list.q ? "No subscriber matches." : "No subscribers yet."}
    >
      {list.rows.map((s) => (
        <tr key={s.id}>
          <Td>
            <ClientLink id={s.clientId} name={s.clientName} />
          </Td>
          <Td>{s.planName}</Td>
          <Td>{cycleName(s.cycle)}</Td>
          <Td>
            <StatusBadge status={s.status} label={s.statusLabel} />
          </Td>
          <Td>{s.started ?? "Not yet"}</Td>
          <Td>{s.nextRenewal ?? "—"}</Td>
          <Td>{s.card ?? "No card saved"}</Td>
        </tr>
      ))}
    </AdminList>
  );
}
