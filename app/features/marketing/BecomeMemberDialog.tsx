import { Link } from "react-router";
import { CalendarCheck, HeartHandshake, ShieldCheck } from "lucide-react";
import { Modal } from "~/components/Modal";
import { useApplyNow } from "./ApplyNow";
import { JoiningNote } from "~/components/JoiningNote";
import { COVERAGE_START, COVERAGE_SUMMARY, MEMBERSHIP_MONTHLY_PRICE } from "./membership";

/** 'Become a Member' on the home page: price, coverage, start date, and how to join. */
export function BecomeMemberDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const openApplyNow = useApplyNow();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Become a Member"
      description={`Membership is available separately for ${MEMBERSHIP_MONTHLY_PRICE} monthly.`}
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={() => onOpenChange(false)}>
            Close
          </button>
          <Link to="/contact-us" className="btn-outline" onClick={() => onOpenChange(false)}>
            Contact Us
          </Link>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              onOpenChange(false);
              openApplyNow();
            }}
          >
            Apply Now
          </button>
        </>
      }
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-xl bg-brand-50 px-5 py-4">
        <span className="font-serif text-4xl font-bold text-brand-900">{MEMBERSHIP_MONTHLY_PRICE}</span>
        <span className="font-medium text-brand-800">per month</span>
        <span className="w-full text-sm text-slate-700">One simple monthly membership for you and your household.</span>
      </div>
      <ul className="mt-5 space-y-4">
        <li className="flex gap-3">
          <ShieldCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" aria-hidden />
          <div>
            <h3 className="font-semibold text-brand-900">What the plan covers</h3>
            <p className="mt-1 text-sm leading-relaxed">{COVERAGE_SUMMARY}</p>
          </div>
        </li>
        <li className="flex gap-3">
          <HeartHandshake className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" aria-hidden />
          <div>
            <h3 className="font-semibold text-brand-900">Member benefits</h3>
            <p className="mt-1 text-sm leading-relaxed">
              The members-only knowledge center, a home maintenance calendar, video tutorials and a member services team that answers your
              questions about buying, owning and selling a home.
            </p>
          </div>
        </li>
        <li className="flex gap-3">
          <CalendarCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" aria-hidden />
          <div>
            <h3 className="font-semibold text-brand-900">When coverage starts</h3>
            <p className="mt-1 text-sm leading-relaxed">{COVERAGE_START}</p>
          </div>
        </li>
      </ul>
      <h3 className="mt-5 font-semibold text-brand-900">Ready to join?</h3>
      <div onClickCapture={(e) => (e.target as HTMLElement).closest("a") && onOpenChange(false)}>
        <JoiningNote className="mt-1 text-sm leading-relaxed" />
      </div>
    </Modal>
  );
}
