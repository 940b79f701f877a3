import { useCallback, useState } from "react";

/**
 * Walks a list of image sources: when one fails to load, the next is used; `failed` turns true
 * once all failed. Also catches an error that happened before hydration (a server-rendered
 * <img> can fail before React attaches its onError).
 */
export function useImageFallback(sources: string[]) {
  const key = sources.join("\n");
  const [state, setState] = useState({ key, index: 0 });
  const index = state.key === key ? state.index : 0;
  const next = useCallback(() => setState((s) => ({ key, index: (s.key === key ? s.index : 0) + 1 })), [key]);
  const ref = useCallback(
    (img: HTMLImageElement | null) => {
      if (img && img.complete && img.naturalWidth === 0 && img.getAttribute("src")) next();
    },
    [next],
  );
  const src = sources[index] ?? null;
  return { src, failed: src === null, onError: next, ref };
}
