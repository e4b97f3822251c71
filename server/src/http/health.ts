import { healthAnswer, healthFailureAnswer } from '@fankurve/shared';
import { sql } from 'kysely';
import { pendingMigrations } from '../db/migrate.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';

/** A database that has not answered by then counts as unavailable (a load balancer's probe waits for less). */
const HEALTH_TIMEOUT_MS = 3000;

type Database = 'ok' | 'unavailable';
type Migrations = 'current' | 'pending' | 'unknown';

/**
 * GET /api/health (docs/product.md, REST API): public and cheap (two small queries), for a load
 * balancer or an orchestrator to tell whether this instance can serve.
 */
export function healthRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/health',
      tag: 'Config',
      summary: 'Whether this instance can serve: the database answers and every migration has run',
      access: 'public',
      answers: {
        200: healthAnswer,
        503: { schema: healthFailureAnswer, description: 'The database or the migrations are not ready' },
      },
    }),
    async (c) => {
      const { database, migrations } = await check(deps);
      c.header('Cache-Control', 'no-store');
      if (database === 'ok' && migrations === 'current') {
        return c.json({ success: true as const, status: 'ok' as const, database, migrations }, 200);
      }
      return c.json({ success: false as const, status: 'unavailable' as const, database, migrations }, 503);
    },
  );
}

async function check(deps: AppDeps): Promise<{ database: Database; migrations: Migrations }> {
  const db = deps.store.db;
  try {
    await withTimeout(sql`select 1`.execute(db));
  } catch {
    return { database: 'unavailable', migrations: 'unknown' };
  }
  try {
    const pending = await withTimeout(pendingMigrations(db));
    return { database: 'ok', migrations: pending.length === 0 ? 'current' : 'pending' };
  } catch {
    return { database: 'ok', migrations: 'unknown' };
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), HEALTH_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
