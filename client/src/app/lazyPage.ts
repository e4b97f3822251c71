import { lazy, type ComponentType } from 'react';

const RELOADED_KEY = 'chunkReload';

/**
 * A lazily loaded screen. When its chunk cannot be loaded (a new version was deployed and the old
 * chunk is gone), the page reloads once to pick up the new build; a second failure goes to the error
 * boundary.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component props
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<T>) {
  return lazy(async () => {
    try {
      const component = await load();
      sessionStorage.removeItem(RELOADED_KEY);
      return { default: component };
    } catch (error) {
      if (!sessionStorage.getItem(RELOADED_KEY)) {
        sessionStorage.setItem(RELOADED_KEY, '1');
        window.location.reload();
        return new Promise<never>(() => undefined);
      }
      throw error;
    }
  });
}
