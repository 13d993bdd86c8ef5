/**
 * The time zone the dates of a part of the page are written in (ADR 0521). The portal's shell provides the
 * signed-in client's saved zone from its loader data, so the server and the hydrating browser write the same
 * text; nothing here reads the browser's own zone. Outside a provider (public site, back office) dates are
 * in the seller's zone, UTC.
 */
import { createContext, type ReactNode, useContext } from "react";
import { BUSINESS_TIME_ZONE, type TimeZone, timeZoneOf } from "./format";

const TimeZoneContext = createContext<TimeZone>(BUSINESS_TIME_ZONE);

export function TimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={timeZoneOf(timeZone)}>{children}</TimeZoneContext.Provider>;
}

/** The zone to pass to `formatDate` / `formatMoment` here. */
export function useTimeZone(): TimeZone {
  return useContext(TimeZoneContext);
}
