import { useState, type FormEvent } from "react";
import { Link, useNavigate, useNavigation } from "react-router";
import { Eye, EyeOff, KeyRound, UserRound } from "lucide-react";
import { useAuthSync, saveStoredUser } from "./auth-sync";
import { BIRTHDATE_MAX_LENGTH, maskBirthdateInput, normalizeBirthdate, normalizeCertificate } from "./normalize";
import { LOGIN_NAVIGATION_DELAY_MS, landingPath } from "./redirect";
import type { PublicUser } from "./user";
import { useSiteDialogs } from "~/components/SiteDialogs";

export const LOGIN_FAILED = "Login failed";
export const LOGIN_FAILED_RETRY = "Login failed. Please try again.";

type Kind = "member" | "staff";

/**
 * Member sign-in (certificate number + birthdate) and a clearly separate staff mode
 * (username + password). With JavaScript it calls the login API as the spec does; without,
 * the same form posts to the page's action.
 */
export function LoginForm({
  redirectTo,
  serverError,
  initialKind = "member",
}: {
  redirectTo: string | null;
  serverError?: string | null;
  initialKind?: Kind;
}) {
  const [kind, setKind] = useState<Kind>(initialKind);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(serverError ?? null);
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { recheck } = useAuthSync();
  const { openApplyNow } = useSiteDialogs();
  const member = kind === "member";
  const submitting = busy || navigation.state === "submitting";

  function switchKind(next: Kind) {
    setKind(next);
    setUsername("");
    setPassword("");
    setShowPassword(false);
    setError(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!username.trim() || !password) {
      setError(member ? "Please enter your certificate number and date of birth." : "Please enter your username and password.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = member
        ? { username: normalizeCertificate(username), password: normalizeBirthdate(password), kind }
        : { username: username.trim(), password, kind };
      const response = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const result = (await response.json()) as { success?: boolean; error?: string; user?: PublicUser };
      if (!result.success || !result.user) {
        setError(result.error || LOGIN_FAILED);
        setBusy(false);
        return;
      }
      saveStoredUser(result.user);
      await recheck();
      const destination = landingPath(result.user, redirectTo);
      setTimeout(() => navigate(destination, { replace: true }), LOGIN_NAVIGATION_DELAY_MS);
    } catch {
      setError(LOGIN_FAILED_RETRY);
      setBusy(false);
    }
  }

  return (
    <div className="w-full max-w-md">
      <div role="tablist" aria-label="Sign-in type" className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm font-medium">
        {(["member", "staff"] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={kind === k}
            onClick={() => switchKind(k)}
            className={`rounded-md px-3 py-2 ${kind === k ? "bg-white text-brand-800 shadow" : "text-slate-600 hover:text-slate-900"}`}
          >
            {k === "member" ? "Member sign-in" : "Staff sign-in"}
          </button>
        ))}
      </div>

      <form method="post" onSubmit={onSubmit} noValidate aria-busy={submitting} className="space-y-5">
        <input type="hidden" name="kind" value={kind} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {error ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {error}
          </div>
        ) : null}

        <div>
          <label htmlFor="login-username" className="field-label">
            {member ? "Certificate Number" : "Username"}
          </label>
          <div className="relative">
            <UserRound className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
            <input
              id="login-username"
              name="username"
              required
              autoComplete="username"
              autoCapitalize={member ? "characters" : "none"}
              spellCheck={false}
              value={username}
              onChange={(e) => setUsername(member ? e.target.value.toUpperCase() : e.target.value)}
              placeholder={member ? "e.g. AHA123456" : "Your staff username"}
              className="field-input pl-9"
            />
          </div>
        </div>

        <div>
          <label htmlFor="login-password" className="field-label">
            {member ? "Date of Birth" : "Password"}
          </label>
          <div className="relative">
            <KeyRound className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
            <input
              id="login-password"
              name="password"
              required
              type={showPassword ? "text" : "password"}
              autoComplete={member ? "off" : "current-password"}
              inputMode={member ? "numeric" : undefined}
              maxLength={member ? BIRTHDATE_MAX_LENGTH : 200}
              value={password}
              onChange={(e) => setPassword(member ? maskBirthdateInput(e.target.value) : e.target.value)}
              placeholder={member ? "MMDDYY" : ""}
              aria-describedby={member ? "login-password-hint" : undefined}
              className="field-input pl-9 pr-11"
            />
            <button
              type="button"
              onClick={() => setShowPassword((s) => !s)}
              className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded p-1.5 text-slate-600 hover:bg-slate-100"
              aria-label={showPassword ? (member ? "Hide date of birth" : "Hide password") : member ? "Show date of birth" : "Show password"}
              aria-pressed={showPassword}
            >
              {showPassword ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
            </button>
          </div>
          {member ? (
            <p id="login-password-hint" className="mt-1 text-xs text-slate-600">
              Enter your date of birth as MMDDYY, for example 030785.
            </p>
          ) : null}
        </div>

        <button type="submit" className="btn-primary w-full py-2.5" disabled={submitting}>
          {submitting ? "Signing in..." : member ? "Sign In" : "Sign In as Staff"}
        </button>
      </form>

      <div className="mt-6 flex flex-col items-center gap-3 text-sm">
        {member ? (
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
