import { Link } from "react-router";
import { telHref, usePublicConfig, useRootShellData } from "./usePublicConfig";

/** Where a signed-in member fills in the application: the login comes back to it. */
export const APPLICATION_LOGIN_HREF = `/login?redirectTo=${encodeURIComponent("/application")}`;

/**
 * How to join, told the same way wherever a visitor is offered the membership application
 * (the Apply Now and Become a Member dialogs, the About, Benefits and Members-only pages, the
 * login wall of /application): the online form is for signed-in members, and everyone else
 * applies through member services by phone or e-mail. A signed-in visitor is sent to the form.
 */
export function JoiningNote({ tone = "light", className = "" }: { tone?: "light" | "dark"; className?: string }) {
  const { phone, email } = usePublicConfig();
  const signedIn = !!useRootShellData()?.user;
  const link =
    tone === "dark"
      ? "font-semibold text-white underline underline-offset-2 hover:text-accent-400"
      : "font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900";
  if (signedIn)
    // Signed in already: the form is one click away (no 'sign in' to a signed-in member).
    return (
      <p className={className} data-testid="joining-note">
        You are signed in, so you can{" "}
        <Link to="/application" className={link}>
          fill in the online membership application
        </Link>{" "}
        now. Questions? Call our member services team at{" "}
        <a href={telHref(phone)} className={link}>
          {phone}
        </a>{" "}
        or e-mail{" "}
        <a href={`mailto:${email}`} className={`${link} [overflow-wrap:anywhere]`}>
          {email}
        </a>
        .
      </p>
    );
  return (
    <p className={className} data-testid="joining-note">
      The online membership application is for signed-in members:{" "}
      <Link to={APPLICATION_LOGIN_HREF} className={link}>
        sign in
      </Link>{" "}
      to fill it in. Not a member yet? Call our member services team at{" "}
      <a href={telHref(phone)} className={link}>
        {phone}
      </a>{" "}
      or e-mail{" "}
      <a href={`mailto:${email}`} className={`${link} [overflow-wrap:anywhere]`}>
        {email}
      </a>{" "}
      and we will take your application with you.
    </p>
  );
}

/** The note beside a page's link to /application, for visitors (a signed-in member simply follows the link). */
export function JoiningNoteForVisitors(props: { tone?: "light" | "dark"; className?: string }) {
  const signedIn = !!useRootShellData()?.user;
  return signedIn ? null : <JoiningNote {...props} />;
}
