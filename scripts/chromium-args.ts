/**
 * How Debian's Chromium is launched here, by the browser tests and the bench alike: no sandbox (root
 * in a container), no GPU, and none of the background connections that a closed network refuses.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
