import type { ChangeEvent } from "react";

/**
 * Upper-cases a text field as it is typed (or pasted, or filled in by the browser), keeping
 * the caret where it was, so the field shows what will be stored.
 */
export function upperCaseAsTyped(event: ChangeEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const upper = input.value.toUpperCase();
  if (upper === input.value) return;
  const { selectionStart, selectionEnd } = input;
  input.value = upper;
  input.setSelectionRange(selectionStart, selectionEnd);
}
