import { useState, type ChangeEvent, type ClipboardEvent } from "react";
import { Link, useNavigate, useNavigation } from "react-router";
import { Tabs } from "radix-ui";
import { AlertCircle, Eye, EyeOff, KeyRound, UserRound } from "lucide-react";
import { FieldError, inputProps } from "~/components/forms/FormParts";
import type { FormResult } from "~/components/forms/parse-form";
import { useSchemaForm } from "~/components/forms/useSchemaForm";
import { upperCaseAsTyped } from "~/components/forms/upper-case";
import { useApplyNow } from "~/features/marketing/ApplyNow";
import { useHydrated } from "~/components/useHydrated";
import { useAuthSync, saveStoredUser } from "./auth-sync";
import { LOGIN_FAILED, LOGIN_FAILED_RETRY, loginSchema, type LoginKind } from "./contract";
import { BIRTHDATE_MAX_LENGTH, birthdateFromPaste, maskBirthdateEdit, normalizeBirthdate, normalizeCertificate } from "./normalize";
import { LOGIN_NAVIGATION_DELAY_MS, landingPath } from "./redirect";
import type { PublicUser } from "./user";
import { connectionFailure, requestInTime } from "~/platform/json-client";

const TAB_CLASS =
  "rounded-md px-3 py-2 text-slate-600 hover:text-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow";

/**
 * Member sign-in (certificate number + birthdate) and a clearly separate staff mode
 * (username + password), as two tabs. With JavaScript it calls the login API as the spec
 * does; without, the same form posts to the page's action.
 */
export function LoginForm({
  redirectTo,
  lastResult,
  initialKind = "member",
}: {
  redirectTo: string | null;
  /** The page action's answer (a form posted without JavaScript), for the kind it was posted as. */
  lastResult?: FormResult;
  initialKind?: LoginKind;
}) {
  const [kind, setKind] = useState<LoginKind>(initialKind);
  const openApplyNow = useApplyNow();

  return (
    <div className="w-full max-w-md">
      <Tabs.Root value={kind} onValueChange={(value) => setKind(value === "staff" ? "staff" : "member")}>
        <Tabs.List aria-label="Sign-in type" className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm font-medium">
          <Tabs.Trigger value="member" className={TAB_CLASS}>
            Member sign-in
          </Tabs.Trigger>
          <Tabs.Trigger value="staff" className={TAB_CLASS}>
            Staff sign-in
          </Tabs.Trigger>
        </Tabs.List>
        {(["member", "staff"] as const).map((k) => (
          <Tabs.Content
            key={k}
            value={k}
            className="rounded-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent-500"
          >
            <CredentialsForm kind={k} redirectTo={redirectTo} lastResult={k === initialKind ? lastResult : undefined} />
          </Tabs.Content>
        ))}
      </Tabs.Root>

      <div className="mt-6 flex flex-col items-center gap-3 text-sm">
        {kind === "member" ? (
          <button type="button" className="btn-outline w-full" onClick={openApplyNow}>
            Apply for membership
          </button>
        ) : null}
        <Link to="/" className="font-medium text-brand-700 hover:underline">
          Back to Home
        </Link>
      </div>
    </div>
  );
}

/** The birthdate's input mask (MMDDYY, 8 characters at most): separators are dropped as they are typed. */
function maskBirthdate(event: ChangeEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const masked = maskBirthdateEdit(input.value, input.selectionStart ?? input.value.length);
  if (masked.value === input.value) return;
  input.value = masked.value;
  input.setSelectionRange(masked.caret, masked.caret);
}

/** A pasted birthdate written year first (1980-05-17) is put in the mask's order before it lands. */
function pasteBirthdate(event: ClipboardEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  event.preventDefault();
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  const before = input.value.slice(0, start) + birthdateFromPaste(event.clipboardData.getData("text"));
  const masked = maskBirthdateEdit(before + input.value.slice(end), before.length);
  input.value = masked.value;
  input.setSelectionRange(masked.caret, masked.caret);
  // The form library follows the field through its input events.
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

/** One kind's form: its two fields, their errors, the failure banner and the busy state. */
function CredentialsForm({ kind, redirectTo, lastResult }: { kind: LoginKind; redirectTo: string | null; lastResult?: FormResult }) {
  const member = kind === "member";
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { recheck } = useAuthSync();
  const { form, fields, formProps, showErrors, failureId, announceFailure } = useSchemaForm({
    id: `login-${kind}`,
    schema: loginSchema,
    lastResult,
    async onValid(credentials, submission) {
      setBusy(true);
      try {
        const body =
          credentials.kind === "member"
            ? { username: normalizeCertificate(credentials.username), password: normalizeBirthdate(credentials.password), kind }
            : { username: credentials.username, password: credentials.password, kind };
        const { text } = await requestInTime("/api/auth/login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        const result = JSON.parse(text) as { success?: boolean; error?: string; user?: PublicUser };
        if (!result.success || !result.user) {
          showErrors(submission, {}, [result.error || LOGIN_FAILED]);
          announceFailure();
          setBusy(false);
          return;
        }
        saveStoredUser(result.user);
        await recheck();
        const destination = landingPath(result.user, redirectTo);
        setTimeout(() => navigate(destination, { replace: true }), LOGIN_NAVIGATION_DELAY_MS);
      } catch (err) {
        showErrors(submission, {}, [connectionFailure(err, LOGIN_FAILED_RETRY)]);
        announceFailure();
        setBusy(false);
      }
    },
  });
  const submitting = busy || navigation.state === "submitting";
  const failure = form.errors?.[0];
  const secretLabel = member ? "date of birth" : "password";

  return (
    <form method="post" {...formProps} aria-busy={submitting} className="space-y-5">
      <input type="hidden" name="kind" value={kind} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      {failure ? (
        <div
          id={failureId}
          tabIndex={-1}
          role="alert"
          className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
        >
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{failure}</span>
        </div>
      ) : null}

      <div>
        <label htmlFor={fields.username.id} className="field-label">
          {member ? "Certificate Number" : "Username"}
        </label>
        <div className="relative">
          <UserRound className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
          <input
            key={fields.username.key}
            {...inputProps(fields.username, { type: "text" })}
            autoComplete="username"
            autoCapitalize={member ? "characters" : "none"}
            spellCheck={false}
            onChange={member ? upperCaseAsTyped : undefined}
            placeholder={member ? "e.g. AHA123456" : "Your staff username"}
            className="field-input pl-9"
          />
        </div>
        <FieldError meta={fields.username} />
      </div>

      <div>
        <label htmlFor={fields.password.id} className="field-label">
          {member ? "Date of Birth" : "Password"}
        </label>
        <div className="relative">
          <KeyRound className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
          <input
            key={fields.password.key}
            {...inputProps(fields.password, {
              type: showPassword ? "text" : "password",
              ariaDescribedBy: member ? fields.password.descriptionId : undefined,
            })}
            autoComplete={member ? "off" : "current-password"}
            inputMode={member ? "numeric" : undefined}
            // Once the mask runs it keeps the field to 8 characters; the browser's own limit would cut
            // "05/17/1980" (typed fast, pasted or filled in) to "05/17/19" before the mask saw it.
            maxLength={member ? (hydrated ? undefined : BIRTHDATE_MAX_LENGTH) : 200}
            onChange={member ? maskBirthdate : undefined}
            onPaste={member ? pasteBirthdate : undefined}
            placeholder={member ? "MMDDYY" : ""}
            className="field-input pl-9 pr-11"
          />
          <button
            type="button"
            onClick={() => setShowPassword((s) => !s)}
            className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded p-1.5 text-slate-600 hover:bg-slate-100"
            aria-label={`${showPassword ? "Hide" : "Show"} ${secretLabel}`}
            aria-pressed={showPassword}
          >
            {showPassword ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
          </button>
        </div>
        {member ? (
          <p id={fields.password.descriptionId} className="mt-1 text-xs text-slate-600">
            Enter your date of birth as MMDDYY, for example 030785.
          </p>
        ) : null}
        <FieldError meta={fields.password} />
      </div>

      <button type="submit" className="btn-primary w-full py-2.5" disabled={submitting}>
        {submitting ? "Signing in..." : member ? "Sign In" : "Sign In as Staff"}
      </button>
    </form>
  );
}
