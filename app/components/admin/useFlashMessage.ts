import { useCallback, useEffect, useRef, useState } from "react";

/** Admin messages clear themselves after 5 seconds (admin-side spec). */
export const ADMIN_MESSAGE_MS = 5000;

export type Flash = { kind: "success" | "warning" | "error"; text: string; id: number };

/** A success or error message that clears itself after `ms` (admin messages: 5 seconds). */
export function useFlashMessage(ms = ADMIN_MESSAGE_MS) {
  const [flash, setFlash] = useState<Flash | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const seq = useRef(0);
  const clear = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setFlash(null);
  }, []);
  const show = useCallback(
    (kind: Flash["kind"], text: string) => {
      if (timer.current) clearTimeout(timer.current);
      setFlash({ kind, text, id: ++seq.current });
      timer.current = setTimeout(() => {
        timer.current = null;
        setFlash(null);
      }, ms);
    },
    [ms],
  );
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return { flash, show, clear };
}
