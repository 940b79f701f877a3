import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Form, Link, NavLink, useLocation } from "react-router";
import { CircleUser, CreditCard, LogIn, LogOut, Mail, Menu, Phone, Shield, X } from "lucide-react";
import { Logo } from "~/components/Logo";
import { followSiteHeader, measureSiteHeader } from "~/components/forms/focus";
import { useApplyNow } from "~/features/marketing/ApplyNow";
import { usePaymentDialog } from "~/features/payments/PaymentDialog";
import { useAboutUs } from "~/components/useAboutUs";
import { saveStoredUser } from "~/features/auth/auth-sync";
import { displayName, isAdmin, type PublicUser } from "~/features/auth/user";
import type { PublicConfig } from "~/platform/config.server";
import { PAY_PATH } from "~/features/membership/online/texts";

interface NavItem {
  label: string;
  to: string;
  about?: boolean;
  membersOnlyBadge?: boolean;
  /** Only in the phone menu (the top bar has its own). */
  menuOnly?: boolean;
}

/** The knowledge center for a signed-in user; the members-only gate for a visitor, rather than a bare lock screen. */
export function knowledgeLink(user: PublicUser | null): string {
  return user ? "/knowledge-center" : "/members-only";
}

/**
 * Where staff's "Make a Payment" leads: Member administration, where a member's row records a
 * payment (the public portal is for members paying their own dues).
 */
export const STAFF_PAYMENTS_PATH = "/admin/members";

/**
 * Apply Now (online applications are coming soon) is for visitors: a signed-in account is a
 * member already, made from an application or an import, or staff (issue 48).
 */
export const showsApplyNow = (user: PublicUser | null) => user === null;

/** Main navigation with the spec's role rules: Application and Admin for admins only. */
export function navItems(user: PublicUser | null): NavItem[] {
  const admin = isAdmin(user);
  const items: (NavItem | false)[] = [
    { label: "Home", to: "/" },
    { label: "About Us", to: "/#about", about: true },
    admin && { label: "Application", to: "/application" },
    { label: "Knowledge", to: knowledgeLink(user), membersOnlyBadge: !user },
    admin && { label: "Admin", to: "/admin/dashboard" },
    { label: "Forms", to: "/form-requests" },
    { label: "Contact", to: "/contact-us" },
    { label: "Calculator", to: "/mortgage-calculator" },
    // A member's own page; staff have none (/account sends them to their dashboard).
    !!user && !admin && { label: "My account", to: "/account", menuOnly: true },
  ];
  return items.filter((i): i is NavItem => !!i);
}

export function Header({ user, config }: { user: PublicUser | null; config: PublicConfig }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const menuId = useId();
  const openApplyNow = useApplyNow();
  const openPayment = usePaymentDialog();
  const { onlinePayments } = config;
  const goAbout = useAboutUs();
  const menuToggle = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  // What the page scrolls into view lands below the header, however tall it is; the menu's
  // opening and closing are measured at once (an item may scroll the page right after).
  useLayoutEffect(() => followSiteHeader(headerRef.current!), []);
  useLayoutEffect(() => measureSiteHeader(), [menuOpen]);
  useEffect(() => setMenuOpen(false), [location.pathname, location.hash]);
  // Escape closes the open menu and gives the focus back to its toggle (a dialog opened from
  // the menu handles its own Escape first and marks the key as used).
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      setMenuOpen(false);
      menuToggle.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);
  const items = navItems(user);
  /**
   * A menu item that opens a dialog or scrolls the page closes the menu first, or the open menu
   * would cover what the page scrolls to. Focus waits on the toggle, so the dialog gives it
   * back there when it closes (the item it was opened from is hidden with the menu).
   */
  const closeMenuFor = (action: () => void) => {
    menuToggle.current?.focus();
    // Closed before the action measures the page: the open menu makes the sticky header taller.
    flushSync(() => setMenuOpen(false));
    action();
  };

  const renderItem = (item: NavItem, mobile: boolean) => {
    const base = mobile
      ? "flex items-center justify-between rounded-md px-3 py-2.5 text-base font-medium"
      : "relative inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium";
    const badge = item.membersOnlyBadge ? (
      <span className="rounded-full bg-accent-400 px-2 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-brand-900">
        Members Only
      </span>
    ) : null;
    if (item.about) {
      return (
        <a
          href={item.to}
          onClick={(event) => (mobile ? closeMenuFor(() => goAbout(event)) : goAbout(event))}
          className={`${base} text-slate-700 hover:bg-brand-50 hover:text-brand-800`}
        >
          {item.label}
        </a>
      );
    }
    return (
      <NavLink
        to={item.to}
        end={item.to === "/"}
        className={({ isActive }) =>
          `${base} ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-brand-50 hover:text-brand-800"}`
        }
      >
        {item.label}
        {badge}
      </NavLink>
    );
  };

  return (
    <header ref={headerRef} data-site-header className="sticky top-0 z-40 bg-white/95 shadow-sm backdrop-blur">
      <div className="bg-brand-900 text-sm text-brand-50">
        <div className="container-page flex min-h-10 flex-wrap items-center justify-between gap-x-4 gap-y-1 py-1.5">
          <a href={`tel:${config.phone.replace(/[^\d+]/g, "")}`} className="hidden items-center gap-1.5 hover:text-white sm:inline-flex">
            <Phone className="h-3.5 w-3.5" aria-hidden /> {config.phone}
          </a>
          <div className="flex flex-1 flex-wrap items-center justify-end gap-x-4 gap-y-1">
            {user ? (
              <>
                {isAdmin(user) ? (
                  <span className="font-medium text-white" data-testid="welcome-line">
                    Welcome, {displayName(user)}
                  </span>
                ) : (
                  // A member's welcome line leads to their own account page.
                  <Link to="/account" className="font-medium text-white underline-offset-2 hover:underline" data-testid="welcome-line">
                    Welcome, {displayName(user)}
                  </Link>
                )}
                {isAdmin(user) ? (
                  <Link to="/admin/dashboard" className="inline-flex items-center gap-1 hover:text-white">
                    <Shield className="h-3.5 w-3.5" aria-hidden /> Admin Panel
                  </Link>
                ) : null}
                {isAdmin(user) ? null : (
                  <Link to="/account" className="inline-flex items-center gap-1 hover:text-white">
                    <CircleUser className="h-3.5 w-3.5" aria-hidden /> My account
                  </Link>
                )}
                {isAdmin(user) ? (
                  // Staff record members' payments; they pay nothing themselves (issue 48).
                  <Link to={STAFF_PAYMENTS_PATH} className="inline-flex items-center gap-1 hover:text-white">
                    <CreditCard className="h-3.5 w-3.5" aria-hidden /> Make a Payment
                  </Link>
                ) : onlinePayments ? (
                  // A member's own plan's payment page (issue 40).
                  <a href={PAY_PATH} className="inline-flex items-center gap-1 hover:text-white">
                    <CreditCard className="h-3.5 w-3.5" aria-hidden /> Make a Payment
                  </a>
                ) : (
                  <button type="button" onClick={() => openPayment()} className="inline-flex items-center gap-1 hover:text-white">
                    <CreditCard className="h-3.5 w-3.5" aria-hidden /> Make a Payment
                  </button>
                )}
                <Form method="post" action="/logout" onSubmit={() => saveStoredUser(null)} className="inline-flex">
                  <button type="submit" className="inline-flex items-center gap-1 hover:text-white">
                    <LogOut className="h-3.5 w-3.5" aria-hidden /> Log Out
                  </button>
                </Form>
              </>
            ) : (
              <Link to="/login" className="inline-flex items-center gap-1 font-medium hover:text-white">
                <LogIn className="h-3.5 w-3.5" aria-hidden /> Member Login
              </Link>
            )}
            <Link to="/contact-us" className="inline-flex items-center gap-1 hover:text-white">
              <Mail className="h-3.5 w-3.5" aria-hidden /> Contact Us
            </Link>
          </div>
        </div>
      </div>

      <div className="container-page flex h-16 items-center justify-between gap-4">
        <Link to="/" className="flex items-center gap-3">
          <Logo />
          {/* Between lg and xl the full navigation needs the room: the name is then only read out, so
              the link's name is always what it shows ('AHA' first when the logo image failed). */}
          <span className="font-serif text-base font-bold leading-tight text-brand-900 sm:text-lg lg:sr-only xl:not-sr-only">
            {config.orgName}
          </span>
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-0.5">
            {items
              .filter((item) => !item.menuOnly)
              .map((item) => (
                <li key={item.label}>{renderItem(item, false)}</li>
              ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {showsApplyNow(user) ? (
            <button type="button" className="btn-accent hidden sm:inline-flex" onClick={openApplyNow}>
              Apply Now
            </button>
          ) : null}
          <button
            ref={menuToggle}
            type="button"
            className="rounded-md p-2 text-brand-900 hover:bg-brand-50 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <X className="h-6 w-6" aria-hidden /> : <Menu className="h-6 w-6" aria-hidden />}
          </button>
        </div>
      </div>

      <nav id={menuId} aria-label="Mobile" hidden={!menuOpen} className="border-t border-slate-200 bg-white lg:hidden">
        <ul className="container-page flex flex-col gap-1 py-3">
          {items.map((item) => (
            <li key={item.label}>{renderItem(item, true)}</li>
          ))}
          {showsApplyNow(user) ? (
            <li className="pt-2">
              <button type="button" className="btn-accent w-full" onClick={() => closeMenuFor(openApplyNow)}>
                Apply Now
              </button>
            </li>
          ) : null}
        </ul>
      </nav>
    </header>
  );
}
