import { Link } from "react-router";
import { Mail, MapPin, Phone } from "lucide-react";
import { Logo } from "~/components/Logo";
import { useApplyNow } from "~/features/marketing/ApplyNow";
import { usePaymentDialog } from "~/features/payments/PaymentDialog";
import { useAboutUs } from "~/components/useAboutUs";
import { knowledgeLink, showsApplyNow, STAFF_PAYMENTS_PATH } from "./Header";
import { isAdmin, type PublicUser } from "~/features/auth/user";
import type { PublicConfig } from "~/platform/config.server";

/**
 * `year`: the copyright's, the current year in the association's zone as the server rendered
 * the page (the root loader's `year`), so the browser hydrates the kept page with the same one.
 */
export function Footer({ user, config, year }: { user: PublicUser | null; config: PublicConfig; year: number }) {
  const openApplyNow = useApplyNow();
  const openPayment = usePaymentDialog();
  const goAbout = useAboutUs();
  const link = "text-brand-100 hover:text-white";
  return (
    <footer className="bg-brand-900 text-brand-100">
      <div className="container-page grid gap-10 py-12 md:grid-cols-3">
        <div>
          <div className="flex items-center gap-3">
            <Logo />
            <span className="font-serif text-lg font-bold text-white">{config.orgName}</span>
          </div>
          <p className="mt-4 max-w-sm text-sm leading-relaxed">
            Helping homeowners buy, protect and keep their homes with member benefits, education and a home protection plan.
          </p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Quick Links</h2>
          <ul className="mt-4 grid grid-cols-2 gap-2 text-sm">
            <li>
              <Link className={link} to="/">
                Home
              </Link>
            </li>
            <li>
              <a className={link} href="/#about" onClick={goAbout}>
                About Us
              </a>
            </li>
            <li>
              <Link className={link} to="/membership-benefits">
                Membership Benefits
              </Link>
            </li>
            {showsApplyNow(user) ? (
              <li>
                <button type="button" className={link} onClick={openApplyNow}>
                  Apply Now
                </button>
              </li>
            ) : null}
            <li>
              <Link className={link} to={knowledgeLink(user)}>
                Knowledge Center
              </Link>
            </li>
            <li>
              <Link className={link} to="/contact-us">
                Contact Us
              </Link>
            </li>
            <li>
              {isAdmin(user) ? (
                <Link className={link} to={STAFF_PAYMENTS_PATH}>
                  Make a Payment
                </Link>
              ) : (
                <button type="button" className={link} onClick={() => openPayment()}>
                  Make a Payment
                </button>
              )}
            </li>
            <li>
              <Link className={link} to="/privacy-policy">
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contact</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex items-start gap-2">
              <Phone className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <a className={link} href={`tel:${config.phone.replace(/[^\d+]/g, "")}`}>
                {config.phone}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Mail className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <a className={link} href={`mailto:${config.email}`}>
                {config.email}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <MapPin className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <address className="not-italic">{config.address}</address>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="container-page py-5 text-center text-xs text-brand-200">{`© ${year} ${config.orgName}. All rights reserved.`}</p>
      </div>
    </footer>
  );
}
