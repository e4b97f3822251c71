/**
 * The match-day rush on one server (SQLite): the 5-season club with BENCH_RUSH_MEMBERS members
 * (1,000), each signed in on two devices (a session each, tokens made with the server's own token
 * service), in a folder and on a server of its own. The devices (rushDevices.ts, in one process of
 * their own, or several when their connections need more file descriptors than one may open) open
 * the app within 30 s, each with its change stream and full pulls of every collection, then members
 * answer 50 times a second for 20 s, and every device takes what its stream carries and pulls the
 * rest of what it names. The
 * server's RSS is sampled meanwhile. Reports errors, pull, write and fan-out times and the RSS.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SYNC_COLLECTIONS, SYNC_DECLARATIONS, SYNC_PULL_LIMIT } from '@fankurve/shared';
import { TokenService } from '../../server/src/auth/tokens.js';
import { openConnection } from '../../server/src/db/connection.js';
import { distribution } from './distribution.js';
import type { RushDeviceFigures, RushInput } from './rushDevices.js';
import { CLUBS, seedClub } from './seed.js';
import { freshDatabase } from './instances.js';
import {
  cpuSecondsOf,
  cpuSecondsOfCommand,
  machineCpuSeconds,
  memoryOf,
  startAppServer,
  type Child,
  type ServerCommand,
} from './server.js';

export interface RushFigures extends RushDeviceFigures {
  members: number;
  /** Server instances: 1 on SQLite, or several on one PostgreSQL database (the devices spread over them). */
  instances: number;
  openSeconds: number;
  answersPerSecond: number;
  answerSeconds: number;
  rss: { startMiB: number; maxMiB: number; endMiB: number };
  /** Where the machine's cores went while the devices ran: CPU seconds, summed over the cores. */
  cpu?: RushCpu;
}

export interface RushCpu {
  wallSeconds: number;
  cores: number;
  /** Everything the machine did, busy seconds of all cores. */
  machineSeconds: number;
  /** Each server instance's. */
  serverSeconds: number[];
  /** PostgreSQL's processes' (0 on SQLite). */
  postgresSeconds: number;
  /** The load generator's processes'. */
  devicesSeconds: number;
}

/** CPU seconds so far of the machine, each server and PostgreSQL. */
function cpuNow(servers: Child[]) {
  return {
    at: Date.now(),
    machine: machineCpuSeconds(),
    servers: servers.map((server) => cpuSecondsOf(server.pid)),
    postgres: cpuSecondsOfCommand('postgres'),
  };
}

function cpuBetween(before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>, devicesSeconds: number): RushCpu {
  const wallSeconds = (after.at - before.at) / 1000;
  return {
    wallSeconds,
    cores: Math.round((after.machine.total - before.machine.total) / wallSeconds),
    machineSeconds: after.machine.busy - before.machine.busy,
    serverSeconds: after.servers.map((seconds, i) => seconds - before.servers[i]!),
    postgresSeconds: after.postgres - before.postgres,
    devicesSeconds,
  };
}

export interface RushInputOptions {
  workDir: string;
  command: ServerCommand;
  clientDir: string;
  members: number;
  passwords: { admin: string; member: string };
  jwtSecret: string;
  /** Several instances on one PostgreSQL database (a fresh one beside this URL's); absent: one server on SQLite. */
  postgres?: { url: string; instances: number };
  log(message: string): void;
}

const OPEN_SECONDS = 30;
const ANSWERS_PER_SECOND = 50;
const ANSWER_SECONDS = 20;
const DEVICES_PER_MEMBER = 2;

/** Two sessions per member, written beside the seed, and a token for each. */
async function deviceTokens(
  dataDir: string,
  jwtSecret: string,
  databaseUrl: string | null,
): Promise<{ token: string; userId: string }[]> {
  const connection = openConnection({ databaseUrl, dataDir });
  const tokens = new TokenService(jwtSecret);
  try {
    const members = await connection.db.selectFrom('users').select(['id', 'token_version']).where('scope', '=', 'user').execute();
    const now = new Date().toISOString();
    const sessions = members.flatMap((member) =>
      Array.from({ length: DEVICES_PER_MEMBER }, (_, i) => ({
        id: randomUUID(),
        user_id: member.id,
        device_name: `Rush ${i + 1}`,
        created_at: now,
        last_seen_at: now,
      })),
    );
    for (let i = 0; i < sessions.length; i += 500)
      await connection.db
        .insertInto('sessions')
        .values(sessions.slice(i, i + 500))
        .execute();
    const versions = new Map(members.map((member) => [member.id, Number(member.token_version)]));
    return Promise.all(
      sessions.map(async (session) => ({
        userId: session.user_id,
        token: await tokens.sign(session.user_id, versions.get(session.user_id)!, session.id),
      })),
    );
  } finally {
    await connection.close();
  }
}

/** Runs one devices' process to its end; its last line is the figures. */
function runDevicesPart(inputFile: string, logFile: string, part: string, begin: number): Promise<RushDeviceFigures> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'rushDevices.ts')], {
      env: { ...process.env, RUSH_INPUT: inputFile, RUSH_PART: part, RUSH_BEGIN: String(begin) },
      stdio: ['ignore', 'pipe', out],
    });
    let stdout = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    // 'close', not 'exit': a long last line may still be in the pipe when the process exits.
    child.on('close', (code) => {
      fs.closeSync(out);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as RushDeviceFigures);
      else reject(new Error(`the rush's devices ended with ${code}: ${fs.readFileSync(logFile, 'utf8').slice(-1500)}`));
    });
  });
}

/** Connections one devices' process holds at most: a process may open 20,000 files here, each device six. */
const CONNECTIONS_PER_PROCESS = 15_000;
const CONNECTIONS_PER_DEVICE = 6;

/**
 * Runs the devices, in as many processes as their connections need (each has its own file
 * descriptors), all starting at the same moment, and merges their figures.
 */
async function runDevices(inputFile: string, logFile: string, devices: number): Promise<RushDeviceFigures> {
  const parts = Math.max(1, Math.ceil((devices * CONNECTIONS_PER_DEVICE) / CONNECTIONS_PER_PROCESS));
  const begin = Date.now() + 3000;
  const all = await Promise.all(
    Array.from({ length: parts }, (_, i) =>
      runDevicesPart(inputFile, parts === 1 ? logFile : `${logFile}.${i + 1}`, `${i}/${parts}`, begin),
    ),
  );
  return parts === 1 ? all[0]! : mergeFigures(all);
}

function mergeFigures(all: RushDeviceFigures[]): RushDeviceFigures {
  const sum = (of: (figures: RushDeviceFigures) => number) => all.reduce((total, figures) => total + of(figures), 0);
  const merged = (key: keyof NonNullable<RushDeviceFigures['samples']>) =>
    distribution(all.flatMap((figures) => figures.samples![key]));
  const changePulls: Record<string, number> = {};
  for (const figures of all)
    for (const [state, count] of Object.entries(figures.changePulls ?? {}))
      changePulls[state] = (changePulls[state] ?? 0) + count;
  return {
    devices: sum((f) => f.devices),
    streams: {
      opened: sum((f) => f.streams.opened),
      failed: sum((f) => f.streams.failed),
      dropped: sum((f) => f.streams.dropped),
    },
    pulls: {
      ...merged('pulls'),
      failed: sum((f) => f.pulls.failed),
      shed: sum((f) => f.pulls.shed ?? 0),
      documents: sum((f) => f.pulls.documents),
    },
    carried: sum((f) => f.carried ?? 0),
    changePulls,
    answeringPulls: merged('answeringPulls'),
    opening: { ...merged('opening'), incomplete: sum((f) => f.opening.incomplete) },
    writes: { ...merged('writes'), failed: sum((f) => f.writes.failed), refused: sum((f) => f.writes.refused) },
    fanOut: { ...merged('fanOut'), missing: sum((f) => f.fanOut.missing) },
    errors: sum((f) => f.errors),
    cpuSeconds: sum((f) => f.cpuSeconds ?? 0),
    firstErrors: all.flatMap((f) => f.firstErrors).slice(0, 10),
  };
}

export async function benchRush(options: RushInputOptions): Promise<RushFigures> {
  const dataDir = path.join(options.workDir, 'rush', 'data');
  const size = { ...CLUBS.fiveSeasons, members: options.members };
  const database = options.postgres ? await freshDatabase(options.postgres.url) : null;
  const servers: Child[] = [];
  const samples: number[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const seed = await seedClub(dataDir, options.passwords, size, database?.url);
    const tokens = await deviceTokens(dataDir, options.jwtSecret, database?.url ?? null);
    const count = options.postgres?.instances ?? 1;
    options.log(
      `  rush: ${seed.counts.members} members, ${tokens.length} devices, ${seed.openUpcoming.length} open events, ` +
        (database ? `${count} instances on one PostgreSQL` : 'one server on SQLite'),
    );
    for (let i = 0; i < count; i++) {
      if (count > 1) fs.mkdirSync(path.join(dataDir, `instance-${i + 1}`), { recursive: true });
      servers.push(
        await startAppServer({
          dataDir: count === 1 ? dataDir : path.join(dataDir, `instance-${i + 1}`),
          adminPassword: options.passwords.admin,
          jwtSecret: options.jwtSecret,
          command: options.command,
          clientDir: options.clientDir,
          databaseUrl: database?.url,
        }),
      );
    }
    // A server that died (out of memory) has no RSS any more: the run says so once the devices are done.
    const rssOf = (server: Child) => {
      try {
        return memoryOf(server.pid).rssMiB;
      } catch {
        return 0;
      }
    };
    const rssNow = () => Math.max(...servers.map(rssOf));
    sampler = setInterval(() => samples.push(rssNow()), 250);
    const startMiB = rssNow();
    const input: RushInput = {
      // The devices in turn on each instance, as a load balancer spreads them.
      devices: tokens.map((device, i) => ({ ...device, baseUrl: servers[i % count]!.baseUrl })),
      events: seed.openUpcoming.map((event) => event.id),
      collections: SYNC_COLLECTIONS.map((name) => ({
        name,
        version: SYNC_DECLARATIONS[name].schema.version,
        // Pulled in two parts, as the app does: split by owner, or kept by event.
        ...(SYNC_DECLARATIONS[name].splitByOwner || SYNC_DECLARATIONS[name].keptByEvent
          ? { scopes: ['own' as const, 'others' as const] }
          : {}),
      })),
      openSeconds: OPEN_SECONDS,
      answersPerSecond: ANSWERS_PER_SECOND,
      answerSeconds: ANSWER_SECONDS,
      pullLimit: SYNC_PULL_LIMIT,
    };
    const inputFile = path.join(options.workDir, 'rush', 'input.json');
    fs.writeFileSync(inputFile, JSON.stringify(input));
    options.log(
      `  rush: ${tokens.length} devices open within ${OPEN_SECONDS} s, then ${ANSWERS_PER_SECOND} answers/s for ${ANSWER_SECONDS} s…`,
    );
    const cpuBefore = cpuNow(servers);
    const figures = await runDevices(inputFile, path.join(options.workDir, 'rush', 'devices.log'), tokens.length);
    const cpu = cpuBetween(cpuBefore, cpuNow(servers), figures.cpuSeconds ?? 0);
    clearInterval(sampler);
    const died = servers.findIndex((server) => server.process.exitCode !== null || server.process.signalCode !== null);
    if (died !== -1) {
      const log = fs.readFileSync(servers[died]!.logFile, 'utf8').split('\n').filter(Boolean).slice(0, 3).join(' / ');
      throw new Error(`server ${died + 1} of ${count} ended during the rush: ${log.slice(0, 200)}`);
    }
    const endMiB = rssNow();
    return {
      ...figures,
      members: seed.counts.members,
      instances: count,
      openSeconds: OPEN_SECONDS,
      answersPerSecond: ANSWERS_PER_SECOND,
      answerSeconds: ANSWER_SECONDS,
      rss: { startMiB, maxMiB: Math.max(startMiB, endMiB, ...samples), endMiB },
      cpu,
    };
  } finally {
    clearInterval(sampler);
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }
}
