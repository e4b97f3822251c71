/**
 * The abuse figures (docs/architecture.md, Sessions, throttles and limits), each side by side with its reference in the same run: how many of
 * 40 parallel guesses on one account are checked; the app shell's answer time idle and while 60
 * sign-ins with random names run; a write's time with no and with 500 open change streams; and
 * what SQLite's synchronous=FULL costs per write next to NORMAL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface HardeningFigures {
  parallelLogin: { sent: number; checked: number; refused: number; signedIn: number };
  shell: {
    idleMedianMs: number;
    idleMaxMs: number;
    floodMedianMs: number;
    floodMaxMs: number;
    loginsChecked: number;
    loginsBusy: number;
  };
  streams: { open: number; quietWriteMs: number; busyWriteMs: number };
  sqlite: { normalWriteMs: number; fullWriteMs: number; writes: number };
}

export interface HardeningOptions {
  baseUrl: string;
  workDir: string;
  /** A member nobody else uses in the run (guessed at in parallel). */
  target: { username: string; password: string };
  /** Members to open streams for (5 each), all with this password. */
  streamers: string[];
  password: string;
  writer: { token: string; eventIds: string[] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function parallelLogin(options: HardeningOptions): Promise<HardeningFigures['parallelLogin']> {
  const sent = 40;
  const answers = await Promise.all(
    Array.from({ length: sent }, (_, i) =>
      post(
        `${options.baseUrl}/api/auth/login`,
        { username: options.target.username, password: i === 20 ? options.target.password : `guess-${i}` },
        { 'x-forwarded-for': '198.51.100.40' },
      ),
    ),
  );
  return {
    sent,
    checked: answers.filter((a) => a.status === 401 || a.status === 200).length,
    refused: answers.filter((a) => a.status === 429).length,
    signedIn: answers.filter((a) => a.status === 200).length,
  };
}

async function shellTimes(baseUrl: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

async function shellUnderFlood(baseUrl: string): Promise<HardeningFigures['shell']> {
  await shellTimes(baseUrl, 5);
  const idle = await shellTimes(baseUrl, 20);
  const logins = Array.from({ length: 60 }, (_, i) =>
    post(
      `${baseUrl}/api/auth/login`,
      { username: `random-${i}-${Math.random().toString(36).slice(2)}`, password: 'whatever' },
      { 'x-forwarded-for': `198.18.0.${i + 1}` },
    ),
  );
  const flood = await shellTimes(baseUrl, 20);
  const answers = await Promise.all(logins);
  return {
    idleMedianMs: median(idle),
    idleMaxMs: Math.max(...idle),
    floodMedianMs: median(flood),
    floodMaxMs: Math.max(...flood),
    loginsChecked: answers.filter((a) => a.status === 401).length,
    loginsBusy: answers.filter((a) => a.body.code === 'serverBusy').length,
  };
}

async function timeWrites(options: HardeningOptions, round: number): Promise<number> {
  const { token, eventIds } = options.writer;
  const started = performance.now();
  for (const [i, id] of eventIds.entries()) {
    const res = await post(
      `${options.baseUrl}/api/attendance/${id}`,
      { status: (i + round) % 2 === 0 ? 'going' : 'maybe' },
      { authorization: `Bearer ${token}` },
    );
    if (res.status !== 200) throw new Error(`attendance write answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return (performance.now() - started) / eventIds.length;
}

async function writesWithStreams(options: HardeningOptions): Promise<HardeningFigures['streams']> {
  await timeWrites(options, 0);
  const quiet = median([await timeWrites(options, 1), await timeWrites(options, 2), await timeWrites(options, 3)]);
  const tokens: string[] = [];
  for (let i = 0; i < options.streamers.length; i += 2) {
    const pair = options.streamers.slice(i, i + 2);
    const answers = await Promise.all(
      pair.map((username) => post(`${options.baseUrl}/api/auth/login`, { username, password: options.password })),
    );
    for (const answer of answers) if (typeof answer.body.token === 'string') tokens.push(answer.body.token);
  }
  const holder = await holdStreams(options, tokens);
  try {
    const busy = median([await timeWrites(options, 4), await timeWrites(options, 5), await timeWrites(options, 6)]);
    return { open: holder.open, quietWriteMs: quiet, busyWriteMs: busy };
  } finally {
    holder.child.kill();
  }
}

/** Opens 5 streams per token in a child process (scripts/bench/streamHolder.ts); resolves once all are open. */
async function holdStreams(options: HardeningOptions, tokens: string[]): Promise<{ child: ChildProcess; open: number }> {
  const tokensFile = path.join(options.workDir, 'stream-tokens.txt');
  fs.writeFileSync(tokensFile, tokens.join('\n'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'streamHolder.ts')], {
    env: { ...process.env, STREAM_URL: `${options.baseUrl}/api/sync/stream`, STREAM_TOKENS_FILE: tokensFile, STREAM_COPIES: '5' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const open = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /open (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`stream holder ended (${code}) before its streams were open`)));
  });
  return { child, open };
}

/** One small write transaction at a time on a WAL database, as the app does, with either setting. */
function sqliteWriteCost(workDir: string): HardeningFigures['sqlite'] {
  const file = path.join(workDir, 'synchronous.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table t (id integer primary key, seq integer, payload text)');
  const insert = db.prepare('insert into t (seq, payload) values (?, ?)');
  const bump = db.prepare('update t set seq = seq + 1 where id = ?');
  const writeOnce = db.transaction((i: number) => {
    const { lastInsertRowid } = insert.run(i, 'x'.repeat(200));
    bump.run(lastInsertRowid);
  });
  const writes = 300;
  const run = (mode: 'NORMAL' | 'FULL') => {
    db.pragma(`synchronous = ${mode}`);
    const started = performance.now();
    for (let i = 0; i < writes; i++) writeOnce(i);
    return (performance.now() - started) / writes;
  };
  // Alternate, so neither setting gets the warmer cache.
  const normal: number[] = [];
  const full: number[] = [];
  for (let round = 0; round < 3; round++) {
    normal.push(run('NORMAL'));
    full.push(run('FULL'));
  }
  db.close();
  fs.rmSync(file, { force: true });
  return { normalWriteMs: median(normal), fullWriteMs: median(full), writes: writes * 3 };
}

export async function benchHardening(options: HardeningOptions, log: (line: string) => void): Promise<HardeningFigures> {
  log('hardening: 40 parallel guesses on one account…');
  const parallel = await parallelLogin(options);
  log('hardening: the app shell while 60 sign-ins with random names run…');
  const shell = await shellUnderFlood(options.baseUrl);
  log(`hardening: writes with 0 and with ${options.streamers.length * 5} open change streams…`);
  const streams = await writesWithStreams(options);
  log('hardening: SQLite synchronous NORMAL vs FULL…');
  const sqlite = sqliteWriteCost(options.workDir);
  return { parallelLogin: parallel, shell, streams, sqlite };
}
