import { useEffect, useRef, useState } from "react";
import { Check, Copy } from "lucide-react";

/** Puts text on the clipboard; falls back to a selected hidden field where the Clipboard API is missing (plain HTTP). */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, no focus): try the old way.
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.appendChild(field);
  field.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    field.remove();
  }
}

/** 'Copy' beside a value; says 'Copied' (announced) for a moment, or 'Copy failed'. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onClick() {
    const ok = await copyText(value);
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 2000);
  }

  return (
    <>
      <button
        type="button"
        onClick={onClick}
        className="inline-flex shrink-0 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-semibold text-slate-700 hover:border-brand-500 hover:text-brand-800"
      >
        {state === "copied" ? <Check className="h-3.5 w-3.5 text-green-700" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
        <span className="sr-only"> {label}</span>
      </button>
      <span role="status" className="sr-only">
        {state === "copied" ? `${label} copied` : state === "failed" ? `Could not copy the ${label.toLowerCase()}` : ""}
      </span>
    </>
  );
}
