import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import { clearAllDrafts } from "~/components/forms/draft";
import type { PublicUser } from "./user";

/** localStorage key of the browser's display copy of the current user (spec section 3). */
export const STORED_USER_KEY = "user";
const CHANNEL = "aha-auth";

type AuthEvent = "login" | "logout";

interface AuthSyncApi {
  /** True while the session is being re-checked after a login or logout elsewhere. */
  checking: boolean;
  /** Re-reads the session from the server (root loader). */
  recheck(): Promise<void>;
  announce(event: AuthEvent): void;
}

const AuthSyncContext = createContext<AuthSyncApi>({ checking: false, recheck: async () => {}, announce: () => {} });
export const useAuthSync = () => useContext(AuthSyncContext);

export function saveStoredUser(user: PublicUser | null) {
  try {
    if (user) localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
    else localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // Private mode or storage full: the copy is for display only.
  }
}

/** The id of the user the display copy was last written for (null: nobody signed in). */
function storedUserId(): number | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORED_USER_KEY) ?? "null") as { id?: unknown } | null;
    return typeof stored?.id === "number" ? stored.id : null;
  } catch {
    return null;
  }
}

interface AuthMessage {
  type: AuthEvent;
  /** The tab that sent it: BroadcastChannel also delivers to other channel objects in the same page. */
  from: string;
  at: number;
}

/** This page's identity on the channel, so it can ignore its own announcements. */
const TAB_ID = Math.random().toString(36).slice(2) + Date.now().toString(36);

function post(event: AuthEvent) {
  if (typeof BroadcastChannel === "undefined") return;
  const ch = new BroadcastChannel(CHANNEL);
  ch.postMessage({ type: event, from: TAB_ID, at: Date.now() } satisfies AuthMessage);
  ch.close();
}

function isAuthMessage(data: unknown): data is AuthMessage {
  if (typeof data !== "object" || data === null) return false;
  const m = data as Partial<AuthMessage>;
  return (m.type === "login" || m.type === "logout") && typeof m.from === "string";
}

/**
 * Keeps every open tab in step with the session: a login or logout in one tab is
 * broadcast, and the others re-check the session with the server.
 */
export function AuthSyncProvider({ user, children }: { user: PublicUser | null; children: ReactNode }) {
  const revalidator = useRevalidator();
  const [checking, setChecking] = useState(false);
  const previousId = useRef<number | null | undefined>(undefined);
  /** The event another tab announced and this one is re-checking: the change it causes here is not announced again. */
  const remoteChange = useRef<AuthEvent | null>(null);
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  const recheck = useCallback(async () => {
    setChecking(true);
    try {
      await revalidate.current();
    } finally {
      setChecking(false);
    }
  }, []);

  const userId = user?.id ?? null;
  useEffect(() => {
    // What the last person typed into a form stays on this computer only while they are signed
    // in: their drafts go when they sign out here, or, signed out elsewhere (another tab, an
    // expired session), when this browser next shows the site to someone else.
    if (previousId.current === undefined && storedUserId() !== userId) clearAllDrafts();
    saveStoredUser(user);
    const before = previousId.current;
    previousId.current = userId;
    if (before === undefined || before === userId) return;
    const event: AuthEvent = userId === null ? "logout" : "login";
    if (before !== null) clearAllDrafts();
    // Any change clears the mark, so a re-check that changed nothing cannot silence a later change.
    const echoed = remoteChange.current === event;
    remoteChange.current = null;
    if (!echoed) post(event);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const ch = new BroadcastChannel(CHANNEL);
    ch.onmessage = (message: MessageEvent<unknown>) => {
      if (!isAuthMessage(message.data) || message.data.from === TAB_ID) return;
      remoteChange.current = message.data.type;
      void recheck();
    };
    return () => ch.close();
  }, [recheck]);

  return <AuthSyncContext.Provider value={{ checking, recheck, announce: post }}>{children}</AuthSyncContext.Provider>;
}
