import { Outlet } from "react-router";

/** The signed-in portal's shell (sidebar, header with notifications): the portal issue fills it. */
export default function PortalShell() {
  return <Outlet />;
}
