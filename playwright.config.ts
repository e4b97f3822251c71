import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium-args.js';

// The config is evaluated in the runner and again in each worker: the first evaluation chooses the
// port and data folder and the workers inherit them through the environment.
process.env.E2E_PORT ??= String(4300 + (process.pid % 500));
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-e2e-'));
process.env.E2E_ADMIN_PASSWORD ??= 'admin-e2e-pass';
const port = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: 'client/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A scenario's budget, not a retry: the longest ones (several devices, offline and back) took up
  // to 60 s on a slow machine (Lighthouse's benchmark index 1,250–2,630; the bench prints it).
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    serviceWorkers: 'allow',
    locale: 'de-DE',
    trace: 'retain-on-failure',
    // Headless Chromium reports the notification permission as 'default', so the push prompt would
    // cover every page 3 s after sign-in: tests start as a device that answered it already; the
    // prompt's own test starts without this (client/e2e/push.spec.ts).
    storageState: {
      cookies: [],
      origins: [{ origin: `http://localhost:${port}`, localStorage: [{ name: 'pushPromptDone', value: 'e2e' }] }],
    },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node --enable-source-maps --max-old-space-size=160 server/dist/main.mjs',
    url: `http://localhost:${port}/api/version`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret',
      // The browser tests register many members from one address.
      REGISTRATIONS_PER_HOUR: '10000',
      // The fixture import's stand-in for OpenLigaDB, started by client/e2e/matches.spec.ts.
      FOOTBALL_DATA_URL: 'http://127.0.0.1:4917',
      // Push subscriptions the tests register point here, on this machine: nothing is sent elsewhere.
      PUSH_ENDPOINT_HOSTS: '127.0.0.1:4918',
    },
  },
});
