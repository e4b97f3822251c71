/**
 * Registers the service worker (built from src/pwa/sw.ts) after the page has loaded. The new worker
 * activates at once (skipWaiting + clientsClaim); the page then reloads at a calm moment, on the next
 * in-app navigation, never in the middle of typing (local changes are in IndexedDB, so nothing is lost).
 */
let updateWaiting = false;

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const hadController = navigator.serviceWorker.controller !== null;

  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController) return; // first install: this page is already current
    updateWaiting = true;
  });

  const register = () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then((registration) => {
        // Look for a new version when the app comes back to the foreground, and hourly.
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') void registration.update().catch(() => undefined);
        });
        setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
      })
      .catch((error: unknown) => console.warn('Service worker registration failed', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

let lastPath: string | null = null;

/** Called with each location: after a navigation, a waiting update is applied by loading the page fully. */
export function applyUpdateOnNavigation(pathname: string): void {
  const navigated = lastPath !== null && lastPath !== pathname;
  lastPath = pathname;
  if (navigated && updateWaiting) window.location.reload();
}
