import { MESSAGES } from '@fankurve/shared';
import { expect } from 'vitest';

/** The shared machinery of the bad-input tests: a route that takes a body, and the bad bodies every route refuses alike. */

export interface BodyRoute {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  token: () => string | null;
  /** A valid body, to build oversized and mistyped variants from. */
  valid: () => Record<string, unknown>;
  /** Route-specific bad bodies with the message expected (or any message when null). */
  bad: [label: string, body: unknown, message: string | null][];
}

export const huge = 'x'.repeat(1024 * 1024 + 10);

/** Bad bodies that every route must refuse the same way. */
export const GENERIC: [
  label: string,
  send: (route: BodyRoute) => { raw: string; headers?: Record<string, string> },
  status: number,
  message: string | null,
][] = [
  ['malformed JSON', () => ({ raw: '{bad' }), 400, MESSAGES.malformedJson],
  ['truncated JSON', (r) => ({ raw: JSON.stringify(r.valid()).slice(0, -1) }), 400, MESSAGES.malformedJson],
  ['empty body', () => ({ raw: '' }), 400, MESSAGES.malformedJson],
  ['a JSON array', () => ({ raw: '[]' }), 400, null],
  ['JSON null', () => ({ raw: 'null' }), 400, null],
  ['a JSON string', () => ({ raw: '"going"' }), 400, null],
  ['a JSON number', () => ({ raw: '42' }), 400, null],
  ['a body over 1 MB', (r) => ({ raw: JSON.stringify({ ...r.valid(), padding: huge }) }), 413, MESSAGES.bodyTooLarge],
  [
    'a body over 1 MB with its Content-Length',
    (r) => {
      const raw = JSON.stringify({ ...r.valid(), padding: huge });
      return { raw, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(raw)) } };
    },
    413,
    MESSAGES.bodyTooLarge,
  ],
  [
    'a huge string field',
    (r) => ({ raw: JSON.stringify(Object.fromEntries(Object.keys(r.valid()).map((k) => [k, huge]))) }),
    413,
    MESSAGES.bodyTooLarge,
  ],
  [
    'valid JSON sent as text/plain',
    (r) => ({ raw: JSON.stringify(r.valid()), headers: { 'content-type': 'text/plain' } }),
    415,
    null,
  ],
  [
    'valid JSON as a form',
    (r) => ({ raw: JSON.stringify(r.valid()), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    415,
    null,
  ],
];

export function expectRefusal(res: { status: number; body: any }, status: number | null, message: string | null) {
  if (status !== null) expect(res.status).toBe(status);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
  expect(res.body.message.length).toBeGreaterThan(0);
  if (message !== null) expect(res.body.message).toBe(message);
}
