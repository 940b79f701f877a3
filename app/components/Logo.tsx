import { useEffect, useRef, useState } from "react";

/** The logo image; if it fails to load, an 'AHA' text badge takes its place. */
export function Logo({ className = "h-11 w-11" }: { className?: string }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // The image may have failed before hydration attached onError.
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) {
    return (
      <span
        className={`${className} inline-flex items-center justify-center rounded-lg bg-brand-800 text-sm font-extrabold tracking-wide text-accent-400`}
        data-testid="logo-fallback"
      >
        AHA
      </span>
    );
  }
  return <img ref={img} src="/logo.svg" alt="" width={44} height={44} className={className} onError={() => setFailed(true)} />;
}
