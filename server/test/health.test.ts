import { healthAnswer, healthFailureAnswer } from '@fankurve/shared';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/* GET /api/health (docs/product.md, REST API; docs/architecture.md, "Health and shutdown"). */

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('GET /api/health', () => {
  it('answers 200 when the database answers and every migration has run, to anyone', async () => {
    t = await createTestApp();
    const answer = await t.callTyped(healthAnswer, 'GET', '/api/health', { status: 200 });
    expect(answer).toEqual({ success: true, status: 'ok', database: 'ok', migrations: 'current' });
    const member = await t.member('health-member');
    expect((await t.call('GET', '/api/health', { token: member.token })).status).toBe(200);
    const response = await t.app.request('/api/health');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 when a migration of the folder has not run', async () => {
    t = await createTestApp();
    await sql`delete from kysely_migration where name = ${'012_jobs'}`.execute(t.db);
    const answer = await t.callTyped(healthFailureAnswer, 'GET', '/api/health', { status: 503 });
    expect(answer).toEqual({ success: false, status: 'unavailable', database: 'ok', migrations: 'pending' });
  });

  it('answers 503 when the database is closed', async () => {
    t = await createTestApp();
    await t.runtime.jobs.stop();
    await t.runtime.connection.close();
    const answer = await t.callTyped(healthFailureAnswer, 'GET', '/api/health', { status: 503 });
    expect(answer).toEqual({ success: false, status: 'unavailable', database: 'unavailable', migrations: 'unknown' });
  });
});
