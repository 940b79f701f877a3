import { useCallback, useEffect, useRef, useState } from "react";
import SignaturePad from "signature_pad";
import { AlertCircle, Eraser } from "lucide-react";

/** Spec: each drawn-signature area is 200 px high. */
export const SIGNATURE_HEIGHT = 200;

/**
 * One drawn signature (signature_pad, bundled): mouse, touch and pen through pointer events,
 * crisp on high-density screens (the canvas is sized in device pixels), and kept when the
 * area is resized (strokes saved with toData and redrawn with fromData). The drawing travels
 * with the form as a PNG data URL in a hidden input named `name`; "" when empty.
 */
export function SignatureField({
  id,
  name,
  label,
  hint,
  required,
  error,
  errorId,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  /** Marked with '*' like the form's other required fields (a drawing area cannot carry aria-required). */
  required?: boolean;
  error?: string;
  errorId: string;
  onChange?: (dataUrl: string) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState("");
  const [ready, setReady] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  /**
   * The drawing goes into the hidden input at once, before React renders it there, so a check
   * of the form that onChange starts reads the new signature rather than the one before.
   */
  const store = useCallback((next: string) => {
    if (inputRef.current) inputRef.current.value = next;
    setValue(next);
    onChangeRef.current?.(next);
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: "#0c2540", minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;

    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (!width || !height) return;
      if (canvas.width === Math.round(width * ratio) && canvas.height === Math.round(height * ratio)) return;
      const strokes = pad.toData();
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext("2d")?.scale(ratio, ratio);
      pad.clear();
      if (strokes.length) pad.fromData(strokes);
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    // A move to a screen of another density changes devicePixelRatio without a resize.
    const media = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    media.addEventListener?.("change", resize);

    const commit = () => store(pad.isEmpty() ? "" : pad.toDataURL("image/png"));
    pad.addEventListener("endStroke", commit);
    setReady(true);
    return () => {
      observer.disconnect();
      media.removeEventListener?.("change", resize);
      pad.removeEventListener("endStroke", commit);
      pad.off();
      padRef.current = null;
    };
  }, [store]);

  function clear() {
    padRef.current?.clear();
    store("");
  }

  const hintId = `${id}-hint`;
  const labelId = `${id}-label`;
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div role="group" aria-labelledby={labelId} data-testid={`signature-${name}`}>
      <div className="flex items-end justify-between gap-3">
        <span id={labelId} className="field-label">
          {label}
          {required ? (
            <>
              <span className="text-red-700" aria-hidden>
                {" "}
                *
              </span>
              <span className="sr-only"> (required)</span>
            </>
          ) : null}
        </span>
        <button type="button" className="btn-ghost mb-1 px-2 py-1 text-xs" onClick={clear} aria-label={`Clear ${label}`}>
          <Eraser className="h-3.5 w-3.5" aria-hidden /> Clear
        </button>
      </div>
      <p id={hintId} className="mb-1.5 text-xs text-slate-600">
        {hint ?? "Sign with your mouse, finger or pen."}
      </p>
      <canvas
        ref={canvasRef}
        id={id}
        tabIndex={0}
        role="img"
        aria-label={`${label} area${value ? " (signed)" : " (empty)"}`}
        aria-describedby={describedBy}
        data-signed={value ? "true" : "false"}
        data-ready={ready ? "true" : undefined}
        style={{ height: SIGNATURE_HEIGHT, touchAction: "none" }}
        className={`block w-full cursor-crosshair rounded-md border-2 border-dashed bg-white ${
          error ? "border-red-600" : "border-slate-400"
        } focus:outline-none focus-visible:ring-4 focus-visible:ring-brand-200`}
      />
      <input ref={inputRef} type="hidden" name={name} value={value} />
      {error ? (
        <p id={errorId} className="field-error flex items-start gap-1.5">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}
