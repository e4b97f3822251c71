/**
 * The member import's preview of 5,000 rows (docs/architecture.md, Member import): the real app in
 * this process on a fresh SQLite file with 1,000 members already there, the list sent as the admin's
 * form sends it (POST /api/users/import, JSON), median of 3. Target: under 2 s. Beside it, once, the
 * confirmed import of the same list through the domain (accounts, adjustments and links written in
 * one transaction; the mails are not sent here).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { write } from '../../server/src/db/store.js';
import { prepareRuntime } from '../../server/src/deps.js';
import { SYSTEM_ACTOR } from '../../server/src/domain/actor.js';
import { importMembers } from '../../server/src/domain/people/memberImport.js';

export interface MemberImportFigures {
  rows: number;
  existing: number;
  bytes: number;
  previewMedianMs: number;
  confirmMs: number;
}

const ROWS = 5000;
const EXISTING = 1000;
const RUNS = 3;
const ADMIN = { username: 'admin', password: 'admin-bench-pass' };

/** A list as a club's spreadsheet has it: every column, umlauts, a note on some rows. */
function list(prefix: string, count: number, offset = 0): string {
  const rows = Array.from({ length: count }, (_, n) => {
    const i = n + offset;
    const note = i % 3 === 0 ? `Auswärtsfahrer seit ${1990 + (i % 30)}` : '';
    return `${prefix}Fan Müller ${i};${prefix.toLowerCase()}fan.${i}@example.org;${i % 4 === 0 ? 'en' : 'de'};${i % 50 === 0 ? 'admin' : 'member'};${note ? i % 20 : ''};${note}`;
  });
  return ['Benutzername;E-Mail;Sprache;Rolle;Treuepunkte;Notiz', ...rows].join('\r\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchMemberImport(): Promise<MemberImportFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fankurve-bench-import-'));
  const runtime = await prepareRuntime(
    loadConfig({
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
    }),
  );
  try {
    const app = createApp(runtime.deps);
    const login = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    // The club's members so far, some of whom the list names again.
    await write(runtime.deps.store, (w) => importMembers(w, SYSTEM_ACTOR, list('Alt', EXISTING)));
    const csv = list('Neu', ROWS - 200) + '\r\n' + list('Alt', 200).split('\r\n').slice(1).join('\r\n');
    const body = JSON.stringify({ csv, confirm: false });
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await app.request('/api/users/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      const answer = (await response.json()) as { rows: { problem: string | null }[] };
      times.push(performance.now() - started);
      if (response.status !== 200 || answer.rows.length !== ROWS) throw new Error(`preview answered ${response.status}`);
    }
    const started = performance.now();
    const { created } = await write(runtime.deps.store, (w) => importMembers(w, SYSTEM_ACTOR, csv));
    const confirmMs = performance.now() - started;
    if (created.length !== ROWS - 200) throw new Error(`the import created ${created.length} accounts`);
    return { rows: ROWS, existing: EXISTING, bytes: Buffer.byteLength(body), previewMedianMs: median(times), confirmMs };
  } finally {
    await runtime.jobs.stop();
    runtime.deps.store.commits.close();
    await runtime.connection.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
