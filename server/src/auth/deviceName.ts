import { UAParser } from 'ua-parser-js';

/** A readable name for the device of a session ("Chrome on Android"), from its User-Agent header. */
export function deviceNameOf(userAgent: string | undefined): string {
  if (!userAgent) return 'Browser';
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const app = browser.name ?? 'Browser';
  const system = os.name ?? device.model ?? null;
  return system ? `${app} on ${system}` : app;
}
