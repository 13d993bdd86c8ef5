import { describe, expect, it } from "vitest";
import { OTHER_ROUTE, routeMatcher } from "./metrics";

/** A route manifest shaped like the build's (ids, parents, paths), with a layout and the catch-all. */
const manifest = {
  root: { id: "root", path: "" },
  "routes/site/home": { id: "routes/site/home", parentId: "root", index: true },
  "service-page/ssl-setup": { id: "service-page/ssl-setup", parentId: "root", path: "services/ssl-setup" },
  "routes/site/service-redirect": {
    id: "routes/site/service-redirect",
    parentId: "root",
    path: "services/:serviceId",
  },
  "routes/portal/shell": { id: "routes/portal/shell", parentId: "root" },
  "routes/portal/order": {
    id: "routes/portal/order",
    parentId: "routes/portal/shell",
    path: "client/orders/:orderId",
  },
  "routes/portal/credit-note-pdf": {
    id: "routes/portal/credit-note-pdf",
    parentId: "root",
    path: "client/credit-notes/:creditNoteId/pdf",
  },
  "routes/api/auth": { id: "routes/api/auth", parentId: "root", path: "api/auth/*" },
  "routes/site/not-found": { id: "routes/site/not-found", parentId: "root", path: "*" },
};

describe("routeMatcher (issue 35: labels from the matched route, never the path)", () => {
  const route = routeMatcher(manifest);

  it("gives the route table's pattern, the same for every id, through layouts and for single fetch", () => {
    expect(route("/")).toBe("/");
    expect(route("/_root.data")).toBe("/");
    expect(route("/client/orders/0b6e1f3a-4c2d-4e5f-8a9b-0c1d2e3f4a5b")).toBe("/client/orders/:orderId");
    expect(route("/client/orders/x1")).toBe("/client/orders/:orderId");
    expect(route("/client/orders/x2.data")).toBe("/client/orders/:orderId");
    expect(route("/client/credit-notes/5/pdf")).toBe("/client/credit-notes/:creditNoteId/pdf");
    // A static path wins over the parameter beside it, as in React Router.
    expect(route("/services/ssl-setup")).toBe("/services/ssl-setup");
    expect(route("/services/anything")).toBe("/services/:serviceId");
    expect(route("/api/auth/verify-email")).toBe("/api/auth/*");
  });

  it("puts every path only the catch-all (the 404 page) matches under one label", () => {
    for (const path of [
      "/no/such/page",
      "/client/orders/x1/more",
      `/${"x".repeat(500)}`,
      "/assets/gone.js",
    ]) {
      expect(route(path), path).toBe(OTHER_ROUTE);
    }
    expect(routeMatcher({ root: { id: "root", path: "" } })("/nothing")).toBe(OTHER_ROUTE);
  });
});
