import { listAudit } from "~/features/admin/audit-log.server";
import { auditSentence } from "~/features/admin/audit-sentence";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList } from "~/features/admin/ui";
import { pageTitle } from "~/features/site/meta";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Audit log · Back Office", matches) },
];

const ENTITIES = ["order", "invoice", "quote", "contact_message", "service", "user"] as const;
const ENTITY_LABELS: Record<string, string> = {
  order: "Order",
  invoice: "Invoice",
  quote: "Quote",
  contact_message: "Contact message",
  service: "Service",
  user: "Account",
  client: "Client",
};
const ENTITY_OPTIONS = [
  { value: "all", label: "All" },
  ...ENTITIES.map((e) => ({ value: e, label: ENTITY_LABELS[e] ?? e })),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("entity");
  const entity = ENTITIES.find((e) => e === raw) ?? null;
  return { ...(await listAudit(context.runtime.database.db, { q, entity, page })), q, entity };
}

export default function AdminAudit({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Audit log">
      <AdminList
        search="Search by admin email, action or entity id"
        filter={{ label: "Entity", param: "entity", current: d.entity ?? "all", options: ENTITY_OPTIONS }}
        list={d}
        caption="Audit log"
        head={["When", "Who", "What", "About"]}
        empty="No entries match."
      >
        {d.rows.map((e) => (
          <tr key={e.id}>
            <Td className="whitespace-nowrap">{formatDateTime(e.at)}</Td>
            {/* A long address wraps rather than squeezing the sentence to a letter a line. */}
            <Td className="min-w-52 wrap-anywhere">{e.actorEmail ?? "system"}</Td>
            <Td className="min-w-60 wrap-anywhere">{auditSentence(e)}</Td>
            <Td>
              {ENTITY_LABELS[e.entity] ?? e.entity}
              <br />
              <code className="text-xs text-slate-600">{e.entityId}</code>
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
