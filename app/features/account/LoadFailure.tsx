import { RotateCw } from "lucide-react";

/** A part of My account that could not be read, with the reason and a way to try again. */
export function LoadFailure({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-900">
      <p>
        Could not load {what}: {message}
      </p>
      <button type="button" className="btn-outline mt-3" onClick={onRetry}>
        <RotateCw className="h-4 w-4" aria-hidden /> Try again
      </button>
    </div>
  );
}
