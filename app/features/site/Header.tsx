import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { dashboardOf } from "~/features/accounts/session-answer";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import { useHydrated } from "~/ui/use-hydrated";
import { HEADER_OPAQUE_AFTER_PX, type HomeSection } from "./chrome";
import { SectionLink } from "./SectionLink";
import { type HeaderAccount, type HeaderAccountState, useHeaderAccount } from "./use-header-account";

const SECTION_LINKS: ReadonlyArray<{ id: HomeSection; label: string }> = [
  { id: "home", label: "Home" },
  { id: "about", label: "About" },
  { id: "blog", label: "Blog" },
  { id: "contact", label: "Contact" },
];

function useScrolledPast(px: number): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const update = () => setPast(window.scrollY > px);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [px]);
  return past;
}

function ServicesDropdown() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover opening is an enhancement; the button is the control.
    <div
      className="relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-700"
      >
        Services
        <Icon name="chevron-down" className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <div id={menuId} hidden={!open} className="absolute left-0 top-full z-50 w-64 pt-2">
        <ul className="rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
          {SERVICE_PAGES.map((page) => (
            <li key={page.slug}>
              <Link
                to={`/services/${page.slug}`}
                onClick={() => setOpen(false)}
                className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-700"
              >
                {page.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The visitor's buttons, then the signed-in person's: the same places, so focus can move across. */
function visitorButtons(onNavigate?: () => void) {
  return (
    <>
      <Link to="/client/login" onClick={onNavigate} className={buttonClass("ghost")}>
        Login
      </Link>
      <Link to="/client/register" onClick={onNavigate} className={buttonClass("primary")}>
        Sign Up
      </Link>
    </>
  );
}

function signedInButtons(account: HeaderAccount, onNavigate?: () => void) {
  return (
    <>
      <Link to={dashboardOf(account.role)} onClick={onNavigate} className={buttonClass("ghost")}>
        Dashboard
      </Link>
      <Form method="post" action="/client/sign-out">
        <button type="submit" className={buttonClass("secondary")}>
          Sign Out
        </button>
      </Form>
    </>
  );
}

const FOCUSABLE = "a[href], button";
/** Room held for the signed-in buttons before the answer (a client's: the admin's are the same size). */
const ANY_CLIENT: HeaderAccount = { role: "client" };

/**
 * The header's account area. Where who is signed in is known only after load (a shared page, ADR
 * 0822) and the switch could move something (`holdRoom`: the desktop bar, where the area's width places
 * the navigation), both sets of buttons are laid in one grid cell and the one not shown is `invisible`
 * (hidden, not focusable, not in the accessibility tree): the area is as wide as the wider set either
 * way, so the switch moves nothing. A keyboard user already on a button that disappears lands on the
 * button in the same place of the other set. In the mobile menu, closed until the page is interactive,
 * the row is one line either way and only the set shown is rendered (React keeps the first link's
 * element, and so its focus, across the switch).
 */
function AccountButtons({
  state,
  align,
  holdRoom = false,
  onNavigate,
}: {
  state: HeaderAccountState;
  align: "start" | "end";
  holdRoom?: boolean;
  onNavigate?: () => void;
}) {
  const { account, afterLoad } = state;
  const visitorRef = useRef<HTMLDivElement>(null);
  const signedInRef = useRef<HTMLDivElement>(null);
  const signedIn = account !== null;
  useEffect(() => {
    const [from, to] = signedIn ? [visitorRef, signedInRef] : [signedInRef, visitorRef];
    const focused = document.activeElement;
    if (!from.current || !to.current || !focused || !from.current.contains(focused)) return;
    const index = [...from.current.querySelectorAll(FOCUSABLE)].indexOf(focused);
    to.current.querySelectorAll<HTMLElement>(FOCUSABLE)[Math.max(index, 0)]?.focus();
  }, [signedIn]);
  const row = `col-start-1 row-start-1 flex items-center gap-2 ${align === "end" ? "justify-end" : ""}`;
  if (!afterLoad || !holdRoom) {
    return (
      <div className={row}>{account ? signedInButtons(account, onNavigate) : visitorButtons(onNavigate)}</div>
    );
  }
  return (
    <div className="grid">
      <div ref={visitorRef} className={`${row} ${signedIn ? "invisible" : ""}`}>
        {visitorButtons(onNavigate)}
      </div>
      <div ref={signedInRef} className={`${row} ${signedIn ? "" : "invisible"}`}>
        {signedInButtons(account ?? ANY_CLIENT, onNavigate)}
      </div>
    </div>
  );
}

export function Header({ businessName }: { businessName: string }) {
  const account = useHeaderAccount();
  const scrolled = useScrolledPast(HEADER_OPAQUE_AFTER_PX);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [mobileServicesOpen, setMobileServicesOpen] = useState(false);
  const location = useLocation();
  const mobileMenuId = useId();
  const mobileServicesId = useId();

  // A navigation closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose.
  useEffect(() => {
    setMobileOpen(false);
    setMobileServicesOpen(false);
  }, [location.pathname]);

  const closeMobile = () => setMobileOpen(false);
  // The scripts are requested after the HTML is parsed (ADR 0811): tells tests the menus are live.
  const hydrated = useHydrated();

  return (
    <header
      data-scrolled={scrolled}
      data-hydrated={hydrated || undefined}
      className={`print:hidden fixed inset-x-0 top-0 z-40 border-b transition-colors duration-200 ${
        scrolled
          ? "border-slate-200 bg-white/95 shadow-sm backdrop-blur"
          : "border-transparent bg-white/75 backdrop-blur-sm"
      }`}
    >
      <Container className="flex h-16 items-center justify-between gap-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-ink">
          <span className="grid size-9 place-items-center rounded-lg bg-brand-600 text-white">
            <Icon name="server" className="size-5" />
          </span>
          <span>{businessName}</span>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          <SectionLink
            section="home"
            className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-700"
          >
            Home
          </SectionLink>
          <ServicesDropdown />
          <Link
            to="/plans"
            className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-700"
          >
            Care Plans
          </Link>
          {SECTION_LINKS.slice(1).map((s) => (
            <SectionLink
              key={s.id}
              section={s.id}
              className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-700"
            >
              {s.label}
            </SectionLink>
          ))}
        </nav>

        <div className="hidden lg:block">
          <AccountButtons state={account} align="end" holdRoom />
        </div>

        <button
          type="button"
          className="inline-flex items-center rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
          aria-expanded={mobileOpen}
          aria-controls={mobileMenuId}
          onClick={() => setMobileOpen((o) => !o)}
        >
          {mobileOpen ? <Icon name="x" className="size-6" /> : <Icon name="menu" className="size-6" />}
          <span className="sr-only">{mobileOpen ? "Close menu" : "Open menu"}</span>
        </button>
      </Container>

      <div id={mobileMenuId} hidden={!mobileOpen} className="border-t border-slate-200 bg-white lg:hidden">
        <nav aria-label="Mobile">
          <Container className="flex flex-col gap-1 py-3">
            <SectionLink
              section="home"
              onNavigate={closeMobile}
              className="rounded-md px-3 py-2 text-base font-medium text-slate-700"
            >
              Home
            </SectionLink>
            <button
              type="button"
              aria-expanded={mobileServicesOpen}
              aria-controls={mobileServicesId}
              onClick={() => setMobileServicesOpen((o) => !o)}
              className="flex items-center justify-between rounded-md px-3 py-2 text-left text-base font-medium text-slate-700"
            >
              Services
              <Icon
                name="chevron-down"
                className={`size-4 transition-transform ${mobileServicesOpen ? "rotate-180" : ""}`}
              />
            </button>
            <ul
              id={mobileServicesId}
              hidden={!mobileServicesOpen}
              className="ml-3 border-l border-slate-200 pl-3"
            >
              {SERVICE_PAGES.map((page) => (
                <li key={page.slug}>
                  <Link
                    to={`/services/${page.slug}`}
                    className="block rounded-md px-3 py-2 text-sm text-slate-700"
                  >
                    {page.label}
                  </Link>
                </li>
              ))}
            </ul>
            <Link
              to="/plans"
              onClick={closeMobile}
              className="rounded-md px-3 py-2 text-base font-medium text-slate-700"
            >
              Care Plans
            </Link>
            {SECTION_LINKS.slice(1).map((s) => (
              <SectionLink
                key={s.id}
                section={s.id}
                onNavigate={closeMobile}
                className="rounded-md px-3 py-2 text-base font-medium text-slate-700"
              >
                {s.label}
              </SectionLink>
            ))}
            <div className="mt-2 border-t border-slate-200 pt-3">
              <AccountButtons state={account} align="start" onNavigate={closeMobile} />
            </div>
          </Container>
        </nav>
      </div>
    </header>
  );
}
