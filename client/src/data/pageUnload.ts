/**
 * The `unload` package's API (add, runAll, removeAll, getSize) on `pagehide` instead of `unload` and
 * `beforeunload` (docs/architecture.md, Client data layer). RxDB's broadcast-channel registers its
 * leader's farewell here; the package's own browser build listens to `unload`, which browsers
 * deprecate and which keeps every page out of the back/forward cache. client/vite.config.ts aliases
 * the package to this module.
 *
 * A page that goes into the back/forward cache (`persisted`) may come back: it keeps its listeners,
 * and its tab stays leader until then (the browser evicts it when another tab asks for its lock).
 */

export interface UnloadHandle {
  remove(): boolean;
  run(): unknown;
}

const listeners = new Set<() => unknown>();
let listening = false;

function listenOnce(): void {
  if (listening || typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  listening = true;
  window.addEventListener('pagehide', (event) => {
    if (!event.persisted) void runAll();
  });
}

export function add(fn: () => unknown): UnloadHandle {
  if (typeof fn !== 'function') throw new Error('Listener is no function');
  listenOnce();
  listeners.add(fn);
  return {
    remove: () => listeners.delete(fn),
    run: () => {
      listeners.delete(fn);
      return fn();
    },
  };
}

export function runAll(): Promise<unknown[]> {
  const running = [...listeners].map((fn) => fn());
  listeners.clear();
  return Promise.all(running);
}

export function removeAll(): void {
  listeners.clear();
}

export function getSize(): number {
  return listeners.size;
}
