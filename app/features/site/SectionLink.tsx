import type { ComponentProps } from "react";
import type { HomeSection } from "./chrome";
import { useSectionLink } from "./use-section-link";

/**
 * A link to a home section (`/#about`). A real link, so it works without JavaScript; with it, the
 * page scrolls (or navigates to / first and scrolls after 100 ms).
 */
export function SectionLink({
  section,
  onNavigate,
  ...props
}: Omit<ComponentProps<"a">, "href" | "onClick"> & { section: HomeSection; onNavigate?: () => void }) {
  const sectionLink = useSectionLink();
  return <a href={`/#${section}`} onClick={sectionLink(section, onNavigate)} {...props} />;
}
