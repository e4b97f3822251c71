import { defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL;
const ALL = ['shared/test/**/*.test.ts', 'server/test/**/*.test.ts', 'client/test/**/*.test.{ts,tsx}'];
/** The tests that talk to a database run a second time on PostgreSQL when TEST_DATABASE_URL is set. */
const DATABASE_TESTS = ['server/test/**/*.test.ts', 'client/test/sync.test.ts'];

/** Unit, route and sync tests in Node; browser tests (client/e2e) run under Playwright instead. */
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'client/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'sqlite', include: ALL, env: { TEST_DATABASE_URL: '' } } },
      ...(postgresUrl
        ? [{ extends: true, test: { name: 'postgres', include: DATABASE_TESTS, env: { TEST_DATABASE_URL: postgresUrl } } }]
        : []),
    ],
  },
});
