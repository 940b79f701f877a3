import { useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useNavigate, useSearchParams, type NavigateFunction } from "react-router";
import { useDebouncedCallback } from "~/components/useDebouncedCallback";

/** Parameters to set (a value) or remove (null or ""). */
export type QueryChanges = Record<string, string | null>;

export interface AddressWrite {
  /** A new history entry with this state (Back undoes the change); otherwise the address is replaced in place. */
  push?: { state: unknown };
  /** Starts from an empty query rather than the current one (a tab: each tab's list owns its parameters). */
  alone?: boolean;
}

/*
 * The one writer of a page's query: an admin list's controls, the tabs that hold the lists and
 * the open dialog all write through it. The router commits an address only once the page's
 * loaders have answered (long after the click on a slowed phone), and a navigation started
 * meanwhile interrupts the one on its way, which then never reaches the address or the history.
 * So a change builds on the address last asked for (with none on its way, on the browser's own),
 * never on a copy a render kept; and the navigations run one after the other, so a new entry (a
 * dialog opened) or a step back (closed) never cuts short the change before it. Of several
 * replacements waiting, only the newest runs: it already holds the ones before it.
 */
type Step =
  | { kind: "go"; pathname: string; search: string; push?: { state: unknown } }
  /**
   * Back to the entry behind, which should hold `search`, when the entry shown then was pushed
   * (`pushed` tells by its state); otherwise `search` replaces the address.
   */
  | { kind: "back"; pathname: string; search: string; pushed: (state: unknown) => boolean };

const browserQuery = () => new URLSearchParams(window.location.search).toString();
/** The state the router keeps with the browser's current entry (its `location.state`), read before the page renders it. */
const entryState = (): unknown => (window.history.state as { usr?: unknown } | null)?.usr;

const address = {
  /** Steps not started yet, oldest first. */
  waiting: [] as Step[],
  /** The step on its way, and the browser's query when it started. */
  moving: null as { step: Step; from: string } | null,
  /** What the controls show until the page renders it: the query last asked for. */
  shown: null as string | null,
  navigate: null as NavigateFunction | null,
  listeners: new Set<() => void>(),
};

function notify() {
  address.listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  address.listeners.add(listener);
  return () => void address.listeners.delete(listener);
}

/** The query every change builds on: the one last asked for, else the browser's. */
function currentQuery(): URLSearchParams {
  const last = address.waiting.at(-1) ?? address.moving?.step;
  return new URLSearchParams(last ? last.search : browserQuery());
}

/** Someone else moved the page (the browser's Back, a link) or it was left: what waited is no longer wanted. */
function forgetSteps() {
  address.waiting = [];
  address.moving = null;
  address.shown = null;
  notify();
}

/** Starts the next waiting step once nothing is on its way. */
function advance() {
  const navigate = address.navigate;
  while (!address.moving && address.waiting.length && navigate) {
    let step = address.waiting.shift()!;
    if (step.kind === "back" && !step.pushed(entryState())) step = { kind: "go", pathname: step.pathname, search: step.search };
    if (step.pathname !== window.location.pathname) return forgetSteps();
    const from = browserQuery();
    if (step.kind === "go" && !step.push && step.search === from) continue;
    address.moving = { step, from };
    if (step.kind === "back") {
      // The browser has the entry behind when it fires popstate; the router follows after.
      window.addEventListener("popstate", () => queueMicrotask(() => arrived(true)), { once: true });
      void navigate(-1);
    } else {
      const done = navigate(
        { pathname: step.pathname, search: step.search ? `?${step.search}` : "" },
        { replace: !step.push, state: step.push?.state, preventScrollReset: true },
      );
      // Settled when it ends, also when it was cut short and never changed the address.
      void Promise.resolve(done).then(() => arrived(true));
    }
  }
  notify();
}

/**
 * The address may have changed: the step on its way is done when the browser's address is no
 * longer the one it started from, or when its navigation has `ended`.
 */
function arrived(ended = false) {
  const moving = address.moving;
  if (!moving) return;
  const now = browserQuery();
  const samePage = window.location.pathname === moving.step.pathname;
  if (!ended && samePage && now === moving.from) return;
  address.moving = null;
  if (!samePage) return forgetSteps();
  if (moving.step.kind === "back") {
    // The entry behind was made before an earlier change reached the address: it gets the address asked for.
    if (now !== moving.step.search) address.waiting.unshift({ kind: "go", pathname: moving.step.pathname, search: moving.step.search });
  } else if (now !== moving.step.search) {
    return forgetSteps();
  }
  advance();
}

function ask(step: Step) {
  const last = address.waiting.at(-1);
  if (step.kind === "go" && !step.push && last?.kind === "go" && !last.push) address.waiting[address.waiting.length - 1] = step;
  else address.waiting.push(step);
  address.shown = step.search;
  advance();
}

function changed(base: URLSearchParams, changes: QueryChanges) {
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") base.delete(key);
    else base.set(key, value);
  }
  return base.toString();
}

/** Changes the page's query, built on the address last asked for. */
export function writeQuery(changes: QueryChanges, options: AddressWrite = {}) {
  const base = options.alone ? new URLSearchParams() : currentQuery();
  ask({ kind: "go", pathname: window.location.pathname, search: changed(base, changes), push: options.push });
}

/**
 * Leaves an entry made by a push (a dialog opened): the address last asked for with these
 * changes (the dialog's id removed), reached by going back when the entry shown was pushed
 * (`pushed` tells by its state: not when it was opened by a link or a reload), else in place.
 */
export function backToQuery(changes: QueryChanges, pushed: (state: unknown) => boolean) {
  ask({ kind: "back", pathname: window.location.pathname, search: changed(currentQuery(), changes), pushed });
}

/**
 * A page's controls kept in its address, the one source of truth: `params` is the address last
 * asked for until the page has it (so the controls and the list follow a change at once), and
 * `update` changes it through the page's one writer (above).
 */
export function useAddressQuery(): [URLSearchParams, (changes: QueryChanges, options?: AddressWrite) => void] {
  const [committed] = useSearchParams();
  const navigate = useNavigate();
  const shown = useSyncExternalStore(
    subscribe,
    () => address.shown,
    () => null,
  );

  useLayoutEffect(() => {
    address.navigate = navigate;
  }, [navigate]);

  const committedQuery = committed.toString();
  useLayoutEffect(() => {
    arrived();
    // Nothing on its way: the copy goes once the page shows the address asked for, or once
    // someone else has moved the page (the browser's Back) to another.
    const idle = !address.moving && !address.waiting.length;
    if (idle && address.shown !== null && (address.shown === committedQuery || address.shown !== browserQuery())) {
      address.shown = null;
      notify();
    }
  });

  const update = useCallback((changes: QueryChanges, options?: AddressWrite) => writeQuery(changes, options), []);
  const params = useMemo(() => (shown !== null ? new URLSearchParams(shown) : committed), [shown, committed]);
  return [params, update];
}

/**
 * A search box that applies what is typed after a pause. `value` is the search in force (from
 * the address); a change of it that this box did not make (back button, a link) replaces the
 * text. `flush()` hands over text still waiting, so another control changed in the meantime
 * takes it along instead of leaving a cleared box with the old search applied.
 */
export function useSearchBox(value: string, apply: (text: string) => void, delayMs = 350) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }
  const latestApply = useRef(apply);
  useLayoutEffect(() => {
    latestApply.current = apply;
  });
  const { schedule, cancel } = useDebouncedCallback((next: string) => {
    sent.current = next.trim();
    latestApply.current(sent.current);
  }, delayMs);

  /** The typed text, trimmed, now taken as the search. */
  const flush = () => {
    cancel();
    sent.current = text.trim();
    return sent.current;
  };
  const type = (next: string) => {
    setText(next);
    schedule(next);
  };
  const submit = () => latestApply.current(flush());
  return { text, type, flush, submit };
}
