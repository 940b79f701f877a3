import { HONEYPOT_FIELD } from "./schemas";

/**
 * The bot trap: a field people never see or reach (off-screen, hidden from assistive
 * technology, out of the tab order), which form-filling scripts fill in.
 */
export function Honeypot({ formId }: { formId: string }) {
  const id = `${formId}-${HONEYPOT_FIELD}`;
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={id}>Website (leave this empty)</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** The trap's value in a submitted form, sent along so the server can refuse a bot. */
export function honeypotValue(form: HTMLFormElement): string {
  const input = form.elements.namedItem(HONEYPOT_FIELD);
  return input instanceof HTMLInputElement ? input.value : "";
}
