import { CircleAlert, CircleCheck, LoaderCircle, RefreshCw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { jsonClient } from "~/platform/json-client";
import { usePublicConfig } from "~/components/usePublicConfig";
import { autopayChargeText } from "./coverage-display";
import type { OnlineAccountAnswer } from "~/features/membership/online/contract";
import { ONLINE_TEXTS } from "~/features/membership/online/texts";

const call = jsonClient();
const PATH = "/api/account/membership/online";
/** How often, and how many times, the page returned to from the payment page asks whether the payment has arrived. */
const CHECK_EVERY_MS = 3000;
const CHECKS = 40;

type Arrival = "waiting" | "arrived" | "late" | null;

/**
 * Dues paid online on My account (issue 40): back from the payment page (?paid=1), a note that
 * the payment is being recorded, checked every few seconds (never a reload) until the
 * provider's event has arrived, then the new dates (`onArrived` reads the coverage again); and
 * Autopay: on (the next charge, named as the payment due it pays: `nextDue`, the plan's; Manage
 * autopay), failing (why) or off.
 */
export function OnlinePayment({ onArrived, nextDue }: { onArrived: () => void; nextDue: { on: string } | null }) {
  const { onlinePayments } = usePublicConfig();
  return onlinePayments ? <OnlinePaymentShown onArrived={onArrived} nextDue={nextDue} /> : null;
}

function OnlinePaymentShown({ onArrived, nextDue }: { onArrived: () => void; nextDue: { on: string } | null }) {
  const [answer, setAnswer] = useState<OnlineAccountAnswer | null>(null);
  const [arrival, setArrival] = useState<Arrival>(null);
  const arrived = useRef(onArrived);
  arrived.current = onArrived;

  useEffect(() => {
    const controller = new AbortController();
    const returned = new URLSearchParams(window.location.search).get("paid") === "1";
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    const check = () =>
      call<OnlineAccountAnswer>(PATH, { signal: controller.signal }).then(
        (a) => {
          if (controller.signal.aborted) return;
          setAnswer(a);
          if (!returned) return;
          if (a.recordedRecently) {
            setArrival("arrived");
            // The address no longer says paid: going back or reloading shows the page as it is.
            const url = new URL(window.location.href);
            url.searchParams.delete("paid");
            window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
            arrived.current();
          } else if (++checks >= CHECKS) setArrival("late");
          else {
            setArrival("waiting");
            timer = setTimeout(check, CHECK_EVERY_MS);
          }
        },
        () => {
          if (controller.signal.aborted) return;
          if (returned && ++checks < CHECKS) timer = setTimeout(check, CHECK_EVERY_MS);
          else if (returned) setArrival("late");
        },
      );
    if (returned) setArrival("waiting");
    void check();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, []);

  return (
    <>
      {arrival === "waiting" ? (
        <p
          role="status"
          className="mt-4 flex items-start gap-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900"
          data-testid="paid-notice"
        >
          <LoaderCircle className="mt-0.5 h-4 w-4 shrink-0 animate-spin" aria-hidden />
          <span>
            <span className="block font-semibold">{ONLINE_TEXTS.beingRecorded}</span>
            <span className="block text-sky-800">{ONLINE_TEXTS.waiting}</span>
          </span>
        </p>
      ) : arrival === "arrived" ? (
        <p
          role="status"
          className="mt-4 flex items-start gap-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
          data-testid="paid-notice"
        >
          <CircleCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {ONLINE_TEXTS.recorded}
        </p>
      ) : arrival === "late" ? (
        <p
          role="status"
          className="mt-4 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="paid-notice"
        >
          <RefreshCw className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {ONLINE_TEXTS.late}
        </p>
      ) : null}
      {answer?.enabled ? <Autopay answer={answer} nextDue={nextDue} /> : null}
    </>
  );
}

function Autopay({ answer, nextDue }: { answer: OnlineAccountAnswer; nextDue: { on: string } | null }) {
  const { autopay, customerPortalUrl } = answer;
  const manage = customerPortalUrl ? (
    <a href={customerPortalUrl} className="ml-2 font-semibold text-brand-700 underline" rel="noopener noreferrer">
      Manage autopay
    </a>
  ) : null;
  return (
    <div className="mt-4 text-sm" data-testid="autopay">
      <span className="text-slate-600">Autopay: </span>
      {autopay.state === "on" ? (
        <>
          <span className="font-semibold text-green-800">On</span>
          {autopay.nextChargeOn ? (
            <span className="text-slate-800" data-testid="autopay-charge">
              : {autopayChargeText(autopay.nextChargeOn, nextDue)}
            </span>
          ) : null}
          {autopay.reason ? <span className="text-slate-800"> ({autopay.reason})</span> : null}
          {manage}
        </>
      ) : autopay.state === "failing" ? (
        <>
          <span className="inline-flex items-center gap-1 font-semibold text-red-800">
            <CircleAlert className="h-4 w-4" aria-hidden /> Failing
          </span>
          {autopay.reason ? <span className="text-slate-800">: {autopay.reason}</span> : null}
          {manage}
        </>
      ) : (
        <span className="font-semibold text-slate-800">Off</span>
      )}
    </div>
  );
}
