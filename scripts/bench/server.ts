/** Starts the real server (and the raw comparison server) as child processes, and reads their memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface Child {
  process: ChildProcess;
  pid: number;
  baseUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
}

function tail(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-20).join('\n') : '';
}

/** Spawns node itself (never through npm or npx), so the child's pid is the process to measure. */
function spawnNode(args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  return child;
}

export interface ServerCommand {
  /** node's arguments, run in server/. */
  args: string[];
  /** Where they came from. */
  source: string;
}

/**
 * The command `npm start -w server` runs (server/package.json), so the bench measures what production
 * runs: `node …` as it is, `tsx …` through node's --import. Its entry missing (no build), src/main.ts
 * through tsx.
 */
export function serverCommand(): ServerCommand {
  const serverDir = path.join(REPO_ROOT, 'server');
  const manifest = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  // The shell expands `${NAME:-default}` in the script; so does the bench.
  const script = (manifest.scripts?.start ?? '').replace(
    /\$\{(\w+):-([^}]*)\}/g,
    (_, name: string, fallback: string) => process.env[name] || fallback,
  );
  const [program, ...rest] = script.trim().split(/\s+/);
  const args = program === 'node' ? rest : program === 'tsx' ? ['--import', 'tsx', ...rest] : null;
  const entry = args?.find((arg) => /\.(m?js|ts)$/.test(arg));
  if (args && entry && fs.existsSync(path.join(serverDir, entry)))
    return { args, source: `server start script: ${manifest.scripts!.start}` };
  return { args: ['--import', 'tsx', 'src/main.ts'], source: 'src/main.ts through tsx (the start script is not runnable as is)' };
}

async function waitForUrl(url: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}\n${tail(logFile)}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms\n${tail(logFile)}`);
}

export async function startAppServer(options: {
  dataDir: string;
  adminPassword: string;
  jwtSecret: string;
  command: ServerCommand;
  /** The built client to serve (a copy, so that a rebuild during the run changes nothing). */
  clientDir?: string;
  /** PostgreSQL instead of the SQLite file in dataDir (several instances on one database). */
  databaseUrl?: string;
}): Promise<Child> {
  const port = await freePort();
  const logFile = path.join(options.dataDir, 'server.log');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: options.adminPassword,
    JWT_SECRET: options.jwtSecret,
    INIT_CWD: '',
    DATABASE_URL: options.databaseUrl ?? '',
    TEST_DATABASE_URL: '',
    ...(options.clientDir ? { CLIENT_DIR: options.clientDir } : {}),
    // The hardening phase sends sign-ins from many client addresses through X-Forwarded-For.
    TRUST_PROXY: '1',
  };
  // BENCH_SERVER_PROFILE=<folder>: the server's CPU profile, written when it stops.
  const profile = process.env.BENCH_SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`] : [];
  const child = spawnNode([...profile, ...options.command.args], path.join(REPO_ROOT, 'server'), env, logFile);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitForUrl(`${baseUrl}/api/version`, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: child, pid: serverNodePid(child.pid!), baseUrl, logFile, stop };
}

/** A node:http server (child process) answering every request with the given bytes and headers. */
export async function startRawServer(body: Buffer, headers: Record<string, string>, workDir: string): Promise<Child> {
  const port = await freePort();
  const bodyFile = path.join(workDir, 'raw-body.bin');
  fs.writeFileSync(bodyFile, body);
  const logFile = path.join(workDir, 'raw-server.log');
  const env = { ...process.env, RAW_PORT: String(port), RAW_BODY_FILE: bodyFile, RAW_HEADERS: JSON.stringify(headers) };
  const child = spawnNode(['--import', 'tsx', path.join(import.meta.dirname, 'rawServer.ts')], REPO_ROOT, env, logFile);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitForUrl(`${baseUrl}/`, child, logFile, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: child, pid: child.pid!, baseUrl, logFile, stop };
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * The node process that runs the server's main module: the spawned pid itself, or the deepest
 * descendant running it should the start command ever go through a wrapper (npx, tsx's CLI).
 */
export function serverNodePid(rootPid: number): number {
  let found = rootPid;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (
      pid !== rootPid &&
      cmdline(pid).includes('main.ts') &&
      path.basename(fs.readlinkSync(`/proc/${pid}/exe`)).startsWith('node')
    ) {
      found = pid;
    }
    queue.push(...childrenOf(pid));
  }
  return found;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far (user and system), or 0 once it is gone; with `children`,
 * also those of its children that ended (PostgreSQL's backends come and go).
 */
export function cpuSecondsOf(pid: number, children = false): number {
  try {
    // The command name may hold spaces and parentheses: the fields start after its last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (children ? own + Number(fields[13]) + Number(fields[14]) : own) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every process of one command name and its ended children (PostgreSQL's). */
export function cpuSecondsOfCommand(name: string): number {
  let seconds = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) seconds += cpuSecondsOf(Number(entry), true);
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** The machine's CPU seconds so far, busy and in all, summed over its cores (/proc/stat). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const ticks = line.split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = ticks[3]! + ticks[4]!; // idle and iowait
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/** VmRSS and VmHWM (peak) of a process, in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number; command: string } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024, command: cmdline(pid) };
}
