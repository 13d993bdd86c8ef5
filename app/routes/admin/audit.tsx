import { listAudit } from "~/features/admin/audit-log.server";
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
const ENTITY_OPTIONS = [
  { value: "all", label: "All" },
  ...ENTITIES.map((e) => ({ value: e, label: e.replace("_", " ") })),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("entity");
  const entity = ENTITIES.find((e) => e === raw) ?? null;
  return { ...(await listAudit(context.runtime.database.db, { q, entity, page })), q, entity };
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-500">—</span>;
  return (
    <code className="block max-w-md whitespace-pre-wrap break-all text-xs">
      {JSON.stringify(value, null, 1)}
    </code>
  );
}

export default function AdminAudit({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Audit log">
      <AdminList
        search="Search by admin email, action or entity id"
        filter={{ label: "Entity", param: "entity", current: d.entity ?? "all", options: ENTITY_OPTIONS }}
        list={d}
        caption="Audit log"
        head={["When", "Who", "Action", "Entity", "Before", "After"]}
        empty="No entries match."
      >
        {d.rows.map((e) => (
          <tr key={e.id}>
            <Td className="whitespace-nowrap">{formatDateTime(e.at)}</Td>
            <Td>{e.actorEmail ?? "system"}</Td>
            <Td className="font-semibold">{e.action}</Td>
            <Td>
              {e.entity}
              <br />
              <code className="text-xs text-slate-600">{e.entityId}</code>
            </Td>
            <Td>
              <Json value={e.before} />
            </Td>
            <Td>
              <Json value={e.after} />
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
