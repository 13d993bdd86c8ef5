/**
 * Whose rows a list reads: one client's (the portal, the signed-in client's own) or every client's (the
 * back office, admins only). The order and invoice lists take it (`listOrders`, `listInvoices`): with
 * one client's scope they read the client's prepared pages and `client_totals`; with all clients they
 * add what the back office shows (who the client is, the invoice's number, a count per status, a
 * search over clients too). A back-office page about one client narrows the all-clients list with the
 * query's `clientId` filter: the scope says who is looking, the query what they asked for.
 */

/** The signed-in client's own rows, and nobody else's. */
export interface OneClient {
  clientId: string;
}

/** Every client's rows: the back office's lists (the route has checked the admin role). */
export interface AllClients {
  allClients: true;
}

export type ListScope = OneClient | AllClients;

export const ALL_CLIENTS: AllClients = { allClients: true };

export function isAllClients(scope: ListScope): scope is AllClients {
  return "allClients" in scope && scope.allClients === true;
}
