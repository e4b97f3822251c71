import { useSyncExternalStore } from 'react';

/*
 * How many modal dialogs are open (ui/Dialog.tsx counts them): one modal at a time, so the prompts
 * after sign-in wait while the member is in another dialog (docs/architecture.md, Profile and
 * prompts). Its own module without styles: the shell reads it without loading the dialogs.
 */

let open = 0;
const listeners = new Set<() => void>();

function changed(by: number): void {
  open += by;
  for (const listener of listeners) listener();
}

/** Counts a modal as open until the returned function is called. */
export function holdModalOpen(): () => void {
  changed(1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    changed(-1);
  };
}

/** Whether any modal dialog is open now; changes re-render. */
export function useAnyModalOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => open > 0,
  );
}
