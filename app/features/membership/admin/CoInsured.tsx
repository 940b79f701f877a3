import { useEffect, useState } from "react";
import { Pencil, Save, UserMinus, UserPlus } from "lucide-react";
import { FormDialog } from "~/components/admin/FormDialog";
import { ConfirmDialog } from "~/components/admin/Feedback";
import { Field, inputProps, selectProps } from "~/components/forms/FormParts";
import { errorReason } from "~/platform/json-client";
import { GENDER_OPTIONS } from "~/domain/people";
import { formatLongDay } from "../coverage";
import { CO_INSURED_LABELS as L, coInsuredName, coInsuredSchema, type CoInsuredInput, type CoInsuredView } from "../co-insured";
import type { MembershipAnswer, MembershipView } from "../contract";
import { serverFieldErrors, type MembershipForm } from "./MembershipDialogs";

/** What the Co-insured section lists: every detail staff keep, "Not given" for the blank ones. */
export function coInsuredRows(person: CoInsuredView): [string, string][] {
  const or = (value: string | null) => value ?? "Not given";
  return [
    ["Name", coInsuredName(person)],
    [L.birthdate, person.birthdate ? formatLongDay(person.birthdate) : "Not given"],
    [L.gender, or(person.gender)],
    [L.email, or(person.email)],
    [L.phone, or(person.phone)],
  ];
}

/** The section's first button (Add, or Change): where the focus goes when the one that opened a form is gone. */
export const CO_INSURED_ACTION_ID = "membership-co-insured-action";

/** The section's buttons: Add co-insured (once the member has a plan), or Change and Remove. */
export function CoInsuredActions({ view, onOpen }: { view: MembershipView; onOpen: (form: MembershipForm) => void }) {
  if (!view.plan) return null;
  if (!view.coInsured)
    return (
      <button id={CO_INSURED_ACTION_ID} type="button" className="btn-outline" onClick={() => onOpen({ kind: "co-insured" })}>
        <UserPlus className="h-4 w-4" aria-hidden />
        Add co-insured
      </button>
    );
  return (
    <div className="flex flex-wrap gap-2">
      <button id={CO_INSURED_ACTION_ID} type="button" className="btn-outline" onClick={() => onOpen({ kind: "co-insured" })}>
        <Pencil className="h-4 w-4" aria-hidden />
        Change co-insured
      </button>
      <button type="button" className="btn-outline text-red-700 hover:bg-red-50" onClick={() => onOpen({ kind: "remove-co-insured" })}>
        <UserMinus className="h-4 w-4" aria-hidden />
        Remove
      </button>
    </div>
  );
}

/** Said when there is none to list. */
export const noCoInsuredText = (view: MembershipView) =>
  view.plan ? "No co-insured on record." : "No plan on record. Give the member a plan before adding a co-insured.";

/**
 * The co-insured's form (add or change) and the confirmation before removing them. The
 * server's refusal stays in the open form, by the field it is about.
 */
export function CoInsuredForms({
  form,
  view,
  certificate,
  api,
  onClose,
  onDone,
}: {
  form: MembershipForm | null;
  view: MembershipView | null;
  certificate: string;
  api: { set: (body: CoInsuredInput) => Promise<MembershipAnswer>; remove: () => Promise<MembershipAnswer> };
  onClose: () => void;
  onDone: (view: MembershipView, message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    setError(null);
    setFieldErrors(null);
  }, [form]);

  async function send(run: () => Promise<MembershipAnswer>, message: string) {
    setBusy(true);
    setError(null);
    setFieldErrors(null);
    try {
      onDone(await run(), message);
    } catch (err) {
      setError(errorReason(err));
      setFieldErrors(serverFieldErrors(err));
    } finally {
      setBusy(false);
    }
  }

  const person = view?.coInsured ?? null;
  return (
    <>
      <FormDialog
        open={form?.kind === "co-insured"}
        title={person ? "Change co-insured" : "Add co-insured"}
        description={`Certificate number ${certificate}. The co-insured is covered by the same plan and listed on the member's card.`}
        schema={coInsuredSchema}
        defaultValue={{
          firstName: person?.firstName ?? "",
          lastName: person?.lastName ?? "",
          birthdate: person?.birthdate ?? "",
          gender: person?.gender ?? "",
          email: person?.email ?? "",
          phone: person?.phone ?? "",
        }}
        busy={busy}
        error={error}
        fieldErrors={fieldErrors}
        returnFocus={() => document.getElementById(CO_INSURED_ACTION_ID)}
        submitLabel="Save co-insured"
        busyLabel="Saving..."
        submitIcon={<Save className="h-4 w-4" aria-hidden />}
        onClose={onClose}
        onSubmit={(data) => void send(() => api.set(data), `Co-insured ${coInsuredName(data)} saved.`)}
      >
        {(fields) => {
          const text = (name: "firstName" | "lastName" | "email" | "phone", type: "text" | "email" | "tel" = "text") => (
            <Field meta={fields[name]} label={L[name]} required={name === "firstName"} optional={name !== "firstName"}>
              <input {...inputProps(fields[name], { type })} className="field-input" autoComplete="off" />
            </Field>
          );
          return (
            <div className="grid gap-4 sm:grid-cols-2">
              {text("firstName")}
              {text("lastName")}
              <Field meta={fields.birthdate} label={L.birthdate} optional>
                <input {...inputProps(fields.birthdate, { type: "date" })} className="field-input" />
              </Field>
              <Field meta={fields.gender} label={L.gender} optional>
                <select {...selectProps(fields.gender)} className="field-input">
                  <option value="">Not given</option>
                  {GENDER_OPTIONS.map((g) => (
                    <option key={g} value={g}>
                      {g}
                    </option>
                  ))}
                </select>
              </Field>
              {text("email", "email")}
              {text("phone", "tel")}
            </div>
          );
        }}
      </FormDialog>

      <ConfirmDialog
        open={form?.kind === "remove-co-insured"}
        title="Remove co-insured?"
        confirmLabel="Remove co-insured"
        busyLabel="Removing..."
        confirmIcon={<UserMinus className="h-4 w-4" aria-hidden />}
        busy={busy}
        onCancel={onClose}
        returnFocus={() => document.getElementById(CO_INSURED_ACTION_ID)}
        onConfirm={() => person && void send(api.remove, `Co-insured ${coInsuredName(person)} removed. The card lists the member alone.`)}
      >
        <p>
          {person
            ? `Remove ${coInsuredName(person)} from the plan of ${certificate}? They are no longer covered by it or listed on its card, and their details are deleted. This is recorded in the audit log.`
            : null}
        </p>
        {error ? (
          <p role="alert" className="mt-3 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
