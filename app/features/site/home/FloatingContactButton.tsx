import { Icon } from "~/ui/icon";
import { SectionLink } from "../SectionLink";

/** Always-visible shortcut to the contact section (bottom-left, clear of the chat launcher). */
export function FloatingContactButton() {
  return (
    <aside aria-label="Quick contact">
      <SectionLink
        section="contact"
        className="fixed bottom-4 left-4 z-30 inline-flex items-center gap-2 rounded-full bg-ink px-4 py-3 font-semibold text-white shadow-lg hover:bg-slate-800 print:hidden"
      >
        <Icon name="mail" className="size-5" />
        Contact Us
      </SectionLink>
    </aside>
  );
}
