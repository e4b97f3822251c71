import { useEffect } from 'react';

interface Badging {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

const badging = (): Badging => (typeof navigator === 'undefined' ? {} : (navigator as unknown as Badging));

/**
 * The installed app's icon badge (Badging API, where the browser has it): the count, cleared at 0 and
 * when the badge's owner goes away (sign-out). Undefined (not known yet) changes nothing; only one
 * caller (`enabled`) owns the icon badge.
 */
export function useAppBadge(count: number | undefined, enabled = true): void {
  useEffect(() => {
    if (!enabled || count === undefined) return;
    const { setAppBadge, clearAppBadge } = badging();
    if (!setAppBadge || !clearAppBadge) return;
    const done = count > 0 ? setAppBadge.call(navigator, count) : clearAppBadge.call(navigator);
    done.catch(() => undefined); // not allowed here (e.g. not installed): nothing to show
  }, [count, enabled]);

  useEffect(() => {
    if (!enabled) return;
    return () => {
      const { clearAppBadge } = badging();
      clearAppBadge?.call(navigator).catch(() => undefined);
    };
  }, [enabled]);
}
