import { createElement, lazy, useState, type ComponentType } from 'react';

const RELOADED_KEY = 'chunkReload';

/** A screen in its own chunk; `preload()` fetches it ahead of the first render. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component props
export type LazyPage<T extends ComponentType<any>> = ComponentType<React.ComponentProps<T>> & { preload(): Promise<T> };

/**
 * A lazily loaded screen. Once its chunk has loaded (preloaded, or rendered before) it renders
 * directly, without suspending: a suspended screen is revealed only after React's fallback delay,
 * which a warm start cannot afford. When its chunk cannot be loaded (a new version was deployed and
 * the old chunk is gone), the page reloads once to pick up the new build; a second failure goes to
 * the error boundary.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component props
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<T>): LazyPage<T> {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
  const Suspending = lazy(async () => {
    try {
      const component = await preload();
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
  const Page = (props: React.ComponentProps<T>) => {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount
    // the screen and lose what was typed into it.
    const [chosen] = useState(() => ({ component: (loaded ?? Suspending) as ComponentType<React.ComponentProps<T>> }));
    return createElement(chosen.component, props);
  };
  return Object.assign(Page, { preload });
}
