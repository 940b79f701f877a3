import type { PublicUser } from "~/features/auth/user";
import type { PublicConfig } from "~/platform/config.server";
import type { Services } from "./services.server";

/** What the server hands every loader and action. */
export interface AppContext {
  services: Services;
  /** The signed-in user, resolved from the session cookie on the server. */
  user: PublicUser | null;
  sessionToken: string | null;
  /** The nonce of this answer's scripts; none for a public page kept for every visitor (its scripts are allowed by hash). */
  cspNonce: string | undefined;
  publicConfig: PublicConfig;
  ip: string;
  /** True when the request came over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
  /**
   * A page kept as a frame (decision 013): its own content's data as the server gives it, or a
   * stand-in's marker where the content goes when the frame is rendered. Unset otherwise: the
   * page's loader reads its content itself.
   */
  frameContent?: string;
}

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
