import { Clock, Mail, MapPin, MessageSquareText, Phone } from "lucide-react";
import type { PublicConfig } from "~/platform/config.server";
import { BUSINESS_HOURS, REPLY_PROMISE_HOURS } from "./contact-info";

/** Phone, e-mail, postal address, business hours and the reply promise. */
export function ContactDetails({ config }: { config: PublicConfig }) {
  const tel = `tel:${config.phone.replace(/[^\d+]/g, "")}`;
  return (
    <div className="space-y-6">
      <section aria-labelledby="contact-details-title" className="rounded-2xl bg-brand-900 p-6 text-brand-100 shadow-lg sm:p-8">
        <h2 id="contact-details-title" className="font-serif text-2xl font-bold text-white">
          Get in touch
        </h2>
        <p className="mt-2 text-sm leading-relaxed">
          Questions about membership, your home protection plan or a bill? Our member services team is here to help.
        </p>
        <ul className="mt-6 space-y-5">
          <li className="flex gap-4">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-white/10">
              <Phone className="h-5 w-5 text-accent-400" aria-hidden />
            </span>
            <div>
              <p className="text-xs font-semibold uppercase tracking-wider text-brand-200">Phone</p>
              <a href={tel} className="text-lg font-semibold text-white hover:underline">
                {config.phone}
              </a>
            </div>
          </li>
          <li className="flex gap-4">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-white/10">
              <Mail className="h-5 w-5 text-accent-400" aria-hidden />
            </span>
            <div className="min-w-0">
              <p className="text-xs font-semibold uppercase tracking-wider text-brand-200">Email</p>
              <a href={`mailto:${config.email}`} className="break-words font-semibold text-white hover:underline">
                {config.email}
              </a>
            </div>
          </li>
          <li className="flex gap-4">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-white/10">
              <MapPin className="h-5 w-5 text-accent-400" aria-hidden />
            </span>
            <div>
              <p className="text-xs font-semibold uppercase tracking-wider text-brand-200">Mailing address</p>
              <address className="not-italic text-white">{config.address}</address>
            </div>
          </li>
        </ul>
      </section>

      <section aria-labelledby="business-hours-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h2 id="business-hours-title" className="flex items-center gap-2 font-serif text-xl font-bold text-brand-900">
          <Clock className="h-5 w-5 text-brand-600" aria-hidden /> Business Hours
        </h2>
        <dl className="mt-4 divide-y divide-slate-200 text-sm" data-testid="business-hours">
          {BUSINESS_HOURS.map((row) => (
            <div key={row.days} className="flex justify-between gap-4 py-2.5">
              <dt className="font-medium text-slate-800">{row.days}</dt>
              <dd className={row.hours === "Closed" ? "text-slate-600" : "text-slate-800"}>{row.hours}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-5 flex items-start gap-2 rounded-lg bg-brand-50 p-3 text-sm text-brand-900">
          <MessageSquareText className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>We reply to every message within {REPLY_PROMISE_HOURS} hours.</span>
        </p>
      </section>
    </div>
  );
}
