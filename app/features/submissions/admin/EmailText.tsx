import { Fragment } from "react";
import { emailBreakParts } from "../display";

/**
 * An e-mail address that wraps only before "@" or a dot when its column is narrow, never
 * inside a name (not even at a hyphen): each part is one inline block, broken inside only
 * when it is wider than the whole column.
 */
export function EmailText({ email }: { email: string }) {
  return (
    <span data-testid="email-text">
      {emailBreakParts(email).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <span className="inline-block max-w-full break-words">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
