import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { SYNC_SCHEMAS } from '@fankurve/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullAnswer } from '../src/sync/sharedPull.js';
import { createEventVia, createTestApp, type TestApp } from './helpers.js';

/*
 * A page of a shared pull kept for everyone (docs/architecture.md, "The match-day rush on one
 * server") is compressed once per coding: every device that asks gets the same compressed bytes,
 * which inflate to exactly the uncompressed answer.
 */

let t: TestApp;
let tokens: string[];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.adminToken();
  tokens = [admin, (await t.member('packed-mia')).token, (await t.member('packed-otto')).token];
  for (let i = 0; i < 8; i++)
    await createEventVia(t, admin, { title: `Auswärtsspiel Nummer ${i} (A)`, date: `2030-0${i + 1}-11 15:30` });
});
afterAll(() => t.close());

async function pullEvents(token: string, acceptEncoding: string | null) {
  const res = await t.app.request(`/api/sync/events/${SYNC_SCHEMAS.events.version}/pull`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
    body: JSON.stringify({ checkpoint: null, limit: 1000 }),
  });
  expect(res.status).toBe(200);
  return {
    coding: res.headers.get('content-encoding'),
    vary: res.headers.get('vary'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('a kept page of a shared pull', () => {
  it('goes out compressed once per coding: the same bytes for every device, inflating to the plain answer', async () => {
    const plain = await pullEvents(tokens[0]!, null);
    expect(plain.coding).toBeNull();
    expect(plain.bytes.byteLength).toBeGreaterThan(1024);
    const documents = JSON.parse(plain.bytes.toString('utf8')).documents as unknown[];
    expect(documents.length).toBeGreaterThanOrEqual(8);

    for (const [accept, coding, inflate] of [
      ['gzip', 'gzip', gunzipSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
    ] as const) {
      const answers = await Promise.all(tokens.map((token) => pullEvents(token, accept)));
      for (const answer of answers) {
        expect(answer.coding).toBe(coding);
        expect(answer.vary).toContain('Accept-Encoding');
        expect(answer.bytes.byteLength).toBeLessThan(plain.bytes.byteLength);
        expect(answer.bytes.equals(answers[0]!.bytes)).toBe(true);
        expect(inflate(answer.bytes).equals(plain.bytes)).toBe(true);
      }
    }
  });

  it('is compressed afresh after a change: the new page inflates to the new plain answer', async () => {
    const before = await pullEvents(tokens[1]!, 'gzip');
    await createEventVia(t, tokens[0]!, { title: 'Nachholspiel (A)', date: '2030-12-11 15:30' });
    const after = await pullEvents(tokens[1]!, 'gzip');
    const plain = await pullEvents(tokens[2]!, null);
    expect(after.bytes.equals(before.bytes)).toBe(false);
    expect(gunzipSync(after.bytes).equals(plain.bytes)).toBe(true);
  });

  it("compresses a kept page once per coding, and leaves one actor's answer and a small page to the compression of every answer", async () => {
    const json = Buffer.from(
      JSON.stringify({ documents: Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, seq: i })), checkpoint: null }),
    );
    const kept = new PullAnswer(json, true, 50, null);
    const gzip = kept.encoded('gzip');
    expect(kept.encoded('gzip')).toBe(gzip);
    expect(gunzipSync(await gzip!).equals(json)).toBe(true);
    expect(new PullAnswer(json, false, 50, null).encoded('gzip')).toBeNull();
    expect(new PullAnswer(Buffer.from('{"documents":[],"checkpoint":null}'), true, 0, null).encoded('br')).toBeNull();
  });
});
