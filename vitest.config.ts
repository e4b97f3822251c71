import { defineConfig } from 'vitest/config';

/** Unit, route and sync tests in Node; browser tests (client/e2e) run under Playwright instead. */
export default defineConfig({
  test: {
    include: ['shared/test/**/*.test.ts', 'server/test/**/*.test.ts', 'client/test/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'client/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
