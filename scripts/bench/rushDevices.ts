/**
 * The devices of the match-day rush (rush.ts), in a process of their own (or a share of them in
 * each of several: RUSH_PART) so that the server's process is measured alone: every device opens its change stream and pulls every collection in
 * full, the devices starting evenly over RUSH_OPEN_S seconds; then members answer RUSH_RATE times a
 * second for RUSH_ANSWER_S seconds (POST /api/attendance/{eventId}), and every device takes what its
 * stream carries and pulls the rest of what it names, as the app does. Reads RUSH_INPUT (a JSON file: base URL, devices with
 * their tokens, the events to answer, the collections with their schema versions) and prints one
 * JSON line of figures at the end.
 *
 * A device sends at most REQUESTS_PER_DEVICE requests at once, as a browser does: HTTP/1.1 allows six
 * connections per origin, and the change stream holds one. Without that limit the 2,000 devices
 * opened ~28,000 requests at once, which no set of phones can.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { distribution, type Distribution } from './distribution.js';
import { onServerSentEvents } from './sse.js';

export interface RushInput {
  /** Each device with the server (instance) it talks to. */
  devices: { token: string; userId: string; baseUrl: string }[];
  events: string[];
  /** Each collection with its schema version; one split by owner or kept by event is pulled in its two scopes, as the app does. */
  collections: { name: string; version: number; scopes?: ('own' | 'others')[] }[];
  openSeconds: number;
  answersPerSecond: number;
  answerSeconds: number;
  pullLimit: number;
}

export type { Distribution };

export interface RushDeviceFigures {
  devices: number;
  streams: { opened: number; failed: number; dropped: number };
  /** Every pull request: the opening full pulls and the pulls a stream's change asked for. */
  pulls: Distribution & { failed: number; shed?: number; documents: number };
  /** Documents the change events carried to devices that took them without a pull. */
  carried?: number;
  /** The pull requests answered once the answers began, by sync state (collection, or collection/scope). */
  changePulls?: Record<string, number>;
  /** The times of those pulls. */
  answeringPulls?: Distribution;
  /** With the devices spread over several processes: each distribution's times, to be merged. */
  samples?: Record<'pulls' | 'opening' | 'writes' | 'fanOut' | 'answeringPulls', number[]>;
  /** The first full pull of every collection, per device: from the device's start to its last answer. */
  opening: Distribution & { incomplete: number };
  writes: Distribution & { failed: number; refused: number };
  /**
   * Per write and device: the write's answer → the first change naming attendees on the device's
   * stream at or after it (a change that came before the answer counts for the next write).
   */
  fanOut: Distribution & { missing: number };
  /** Requests that failed (network, 5xx, 429) or streams that failed or dropped. */
  errors: number;
  /** CPU seconds the devices' process used (the load generator's share of the machine). */
  cpuSeconds?: number;
  firstErrors: string[];
}

const input = JSON.parse(fs.readFileSync(process.env.RUSH_INPUT!, 'utf8')) as RushInput;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const firstErrors: string[] = [];
const noteError = (what: string) => {
  if (firstErrors.length < 10) firstErrors.push(what);
};

interface Answer {
  status: number;
  /** The bytes as they came, in `coding`. */
  body: Buffer;
  coding: string | undefined;
  headers: http.IncomingHttpHeaders;
}

/**
 * A request on a kept-alive connection that the server closed just as the request went out fails
 * before any answer: a browser sends it again on a new connection (Chromium does so for a reused
 * connection that fails before the response headers, whatever the method), and so does a device
 * here, once (Node's documentation of `request.reusedSocket`).
 */
async function post(baseUrl: string, path: string, token: string, body: unknown): Promise<Answer> {
  try {
    return await postOnce(baseUrl, path, token, body);
  } catch (error) {
    if ((error as { reusedSocket?: boolean }).reusedSocket && (error as { code?: string }).code === 'ECONNRESET')
      return postOnce(baseUrl, path, token, body);
    throw error;
  }
}

function postOnce(baseUrl: string, path: string, token: string, body: unknown): Promise<Answer> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          // As a browser asks; the answer is inflated here (readBody).
          'accept-encoding': 'gzip, deflate, br',
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            coding: res.headers['content-encoding'],
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });
}

const inflate = { br: promisify(zlib.brotliDecompress), gzip: promisify(zlib.gunzip), deflate: promisify(zlib.inflate) };

/** An answer's text, inflated on the thread pool (as a browser does, off its main thread). */
async function textOf(answer: Answer): Promise<string> {
  const { body, coding } = answer;
  if (coding === undefined || coding === 'identity') return body.toString('utf8');
  if (coding !== 'br' && coding !== 'gzip' && coding !== 'deflate') throw new Error(`content coding ${coding}`);
  return (await inflate[coding](body)).toString('utf8');
}

/**
 * Pages read so far, by a digest of their compressed bytes: a page kept for everyone comes to every
 * device as the same bytes, and each phone would inflate it on its own processor, not on the two
 * cores this process shares with the server. So each such page is inflated and counted once here.
 */
const readPages = new Map<string, Promise<{ count: number; checkpoint: { seq: number } | null }>>();

function pageOf(answer: Answer): Promise<{ count: number; checkpoint: { seq: number } | null }> {
  if (answer.coding === undefined) return textOf(answer).then(readPage);
  const key = `${answer.coding}:${createHash('sha1').update(answer.body).digest('base64')}`;
  let page = readPages.get(key);
  if (!page) {
    page = textOf(answer).then(readPage);
    readPages.set(key, page);
  }
  return page;
}

/** Pages up to this size are also decoded in full, to check the count read without decoding. */
const CHECKED_PAGE_CHARS = 64 * 1024;

/**
 * A pull answer's document count and checkpoint, read without decoding every document: 2,000 devices
 * decoding ~4 MB each would measure this process, not the server, on the same two cores (the app's
 * own decoding is the browser part's figure). Every document has exactly one `"seq":` key at its top
 * level and none below it (a quote inside a JSON string is escaped); small pages are decoded in full
 * to check that, and a difference counts as an error.
 */
function readPage(text: string): { count: number; checkpoint: { seq: number } | null } {
  const at = text.lastIndexOf('"checkpoint":');
  const checkpoint = JSON.parse(text.slice(at + '"checkpoint":'.length, -1)) as { seq: number } | null;
  let count = 0;
  for (let i = text.indexOf('"seq":'); i !== -1 && i < at; i = text.indexOf('"seq":', i + 6)) count += 1;
  if (text.length <= CHECKED_PAGE_CHARS) {
    const decoded = (JSON.parse(text) as { documents: unknown[] }).documents.length;
    if (decoded !== count) throw new Error(`a page of ${decoded} documents was counted as ${count}`);
  }
  return { count, checkpoint };
}

/** A change event's data (shared/src/schemas/answers/sync.ts, SyncChangeEvent). */
interface ChangeEvent {
  collections: string[];
  lists?: Record<string, { from: number; to: number; documents: unknown[] }>;
  unchanged?: string[];
}

/**
 * The change events read lately, by their text: every device of a kind gets the same text, and each
 * phone would decode it on its own processor, not on the two cores this process shares with the server.
 */
const readChanges = new Map<string, ChangeEvent>();

function changeOf(data: string): ChangeEvent {
  let change = readChanges.get(data);
  if (!change) {
    change = JSON.parse(data || '{"collections":[]}') as ChangeEvent;
    readChanges.set(data, change);
    if (readChanges.size > 16) readChanges.delete(readChanges.keys().next().value!);
  }
  return change;
}

const pullTimes: number[] = [];
/** Pulls slower than this are counted by when they were sent and what they pulled (in the devices' log). */
const SLOW_PULL_MS = 1000;
const slowPulls = { bySecond: {} as Record<number, number>, byState: {} as Record<string, number> };
let rushBegin = 0;
function noteSlowPull(state: string, sent: number): void {
  const second = Math.floor((sent - rushBegin) / 1000);
  slowPulls.bySecond[second] = (slowPulls.bySecond[second] ?? 0) + 1;
  slowPulls.byState[state] = (slowPulls.byState[state] ?? 0) + 1;
}
/** Documents the change events carried to devices that stored them without a pull. */
let carriedDocuments = 0;
/** The pull requests answered once the answers began. */
const answeringPullTimes: number[] = [];
/** The pull requests answered once the answers began (mostly what the change stream did not carry), by sync state. */
const changePulls: Record<string, number> = {};
/** The answers have begun: pulls from now on count in changePulls. */
let answering = false;
let pullFailures = 0;
/** Pulls the server shed (503) and the device asked again. */
let shedPulls = 0;
let pulledDocuments = 0;
const writeTimes: number[] = [];
let writeFailures = 0;
let writeRefusals = 0;
const fanOutTimes: number[] = [];
const openingTimes: number[] = [];
let openingIncomplete = 0;
const streams = { opened: 0, failed: 0, dropped: 0 };
/** The answers' times (performance.now() when answered), in order. */
const answeredAt: number[] = [];
let stopping = false;

/** A browser's six connections per origin, less the one the change stream holds. */
const REQUESTS_PER_DEVICE = 5;

/** Lets at most `size` calls run at once; the rest wait in order. */
class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

type ListTail = { from: number; to: number; documents: unknown[] };

/**
 * One sync state of a device (a collection, or a collection in one scope), as the app's store pull
 * runs it (client/src/data/storePull.ts): pulls and carried tails one after the other, a tail stored
 * when the checkpoint reaches its start, else a pull; pulls asked for meanwhile are made once.
 */
class StateSync {
  private again = false;
  private readonly tails: ListTail[] = [];
  private running: Promise<void> | null = null;
  /** A request of the last pull failed. */
  failed = false;

  constructor(
    private readonly pull: () => Promise<boolean>,
    private readonly checkpoint: { get(): number; set(seq: number): void },
  ) {}

  reSync(): Promise<void> {
    this.again = true;
    return this.start();
  }

  offer(tail: ListTail): void {
    this.tails.push(tail);
    void this.start();
  }

  /** Runs what waits, unless a run is under way (a run that ends at once is forgotten after it ends, not before). */
  private start(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  get idle(): boolean {
    return this.running === null;
  }

  private async run(): Promise<void> {
    while ((this.again || this.tails.length > 0) && !stopping) {
      if (this.again) {
        this.again = false;
        this.failed = !(await this.pull());
        continue;
      }
      const tail = this.tails.shift()!;
      const seq = this.checkpoint.get();
      if (seq >= tail.from) {
        this.checkpoint.set(Math.max(seq, tail.to));
        carriedDocuments += tail.documents.length;
      } else this.again = true;
    }
  }
}

class Device {
  private readonly slots = new Slots(REQUESTS_PER_DEVICE);
  private readonly checkpoints = new Map<string, number>();
  private readonly states = new Map<string, StateSync>();
  /** How many answers this device's stream has told so far. */
  private seen = 0;
  private request: http.ClientRequest | null = null;

  constructor(
    private readonly token: string,
    private readonly baseUrl: string,
  ) {}

  /** The device's sync state of a collection in a scope, made on first use. */
  private state(name: string, scope?: 'own' | 'others'): StateSync {
    const key = scope ? `${name}/${scope}` : name;
    let state = this.states.get(key);
    if (!state) {
      state = new StateSync(() => this.pullAll(name, scope), {
        get: () => this.checkpoints.get(key) ?? 0,
        set: (seq) => this.checkpoints.set(key, seq),
      });
      this.states.set(key, state);
    }
    return state;
  }

  async start(): Promise<void> {
    const started = performance.now();
    this.openStream();
    const states = input.collections.flatMap((collection) =>
      (collection.scopes ?? [undefined]).map((scope) => this.state(collection.name, scope)),
    );
    await Promise.all(states.map((state) => state.reSync()));
    if (states.every((state) => !state.failed)) openingTimes.push(performance.now() - started);
    else openingIncomplete += 1;
  }

  /** Pulls a collection (in one scope) until a page is not full; false when a request failed. */
  private async pullAll(name: string, scope?: 'own' | 'others'): Promise<boolean> {
    const version = input.collections.find((collection) => collection.name === name)!.version;
    const key = scope ? `${name}/${scope}` : name;
    for (;;) {
      const seq = this.checkpoints.get(key) ?? 0;
      const sent = performance.now();
      try {
        let answer: Answer;
        for (;;) {
          answer = await this.slots.run(() =>
            post(this.baseUrl, `/api/sync/${name}/${version}/pull`, this.token, {
              checkpoint: seq === 0 ? null : { seq },
              limit: input.pullLimit,
              scope,
            }),
          );
          if (answer.status !== 503 || stopping) break;
          // A read the server shed: asked again after its Retry-After (and a little more, so the devices
          // do not all come back at once), as the app's sync does; the wait counts in the pull's time.
          shedPulls += 1;
          await sleep(Number(answer.headers['retry-after'] ?? 1) * 1000 * (1 + Math.random()));
        }
        if (answer.status !== 200) {
          pullFailures += 1;
          noteError(`pull ${name}: ${answer.status} ${(await textOf(answer)).slice(0, 120)}`);
          return false;
        }
        pullTimes.push(performance.now() - sent);
        if (performance.now() - sent > SLOW_PULL_MS) noteSlowPull(key, sent);
        if (answering) {
          changePulls[key] = (changePulls[key] ?? 0) + 1;
          answeringPullTimes.push(performance.now() - sent);
        }
        const page = await pageOf(answer);
        pulledDocuments += page.count;
        if (page.checkpoint) this.checkpoints.set(key, page.checkpoint.seq);
        if (page.count < input.pullLimit) return true;
      } catch (error) {
        pullFailures += 1;
        noteError(`pull ${name}: ${String(error)}`);
        return false;
      }
    }
  }

  /**
   * As the app does: of each named collection, a state the batch carries the tail of is stored
   * without a request when the device's checkpoint reaches the tail's start; a state the batch says
   * is unchanged for this member is left; the rest is pulled.
   */
  private onChange(change: ChangeEvent): void {
    const at = performance.now();
    if (change.collections.includes('attendees')) {
      while (this.seen < answeredAt.length && answeredAt[this.seen]! <= at) {
        fanOutTimes.push(at - answeredAt[this.seen]!);
        this.seen += 1;
      }
    }
    for (const name of change.collections) {
      const collection = input.collections.find((candidate) => candidate.name === name);
      if (!collection) continue;
      for (const scope of collection.scopes ?? [undefined]) {
        const key = scope ? `${name}/${scope}` : name;
        if (change.unchanged?.includes(key)) continue;
        const tail = change.lists?.[key];
        if (tail) this.state(name, scope).offer(tail);
        else void this.state(name, scope).reSync();
      }
    }
  }

  private openStream(): void {
    let ready = false;
    this.request = http.get(
      `${this.baseUrl}/api/sync/stream`,
      { agent: streamAgent, headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          streams.failed += 1;
          noteError(`stream: ${res.statusCode}`);
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on(
          'data',
          onServerSentEvents((event, data) => {
            if (event === 'ready' && !ready) {
              ready = true;
              streams.opened += 1;
            } else if (event === 'change') {
              this.onChange(changeOf(data));
            }
          }),
        );
        res.on('end', () => {
          if (!stopping) {
            streams.dropped += 1;
            noteError('stream ended');
          }
        });
        res.on('error', () => undefined);
      },
    );
    this.request.on('error', (error) => {
      if (stopping) return;
      if (ready) streams.dropped += 1;
      else streams.failed += 1;
      noteError(`stream: ${String(error)}`);
    });
  }

  /** How many answers the stream has not told this device. */
  get unseen(): number {
    return answeredAt.length - this.seen;
  }

  get idle(): boolean {
    return [...this.states.values()].every((state) => state.idle);
  }

  close(): void {
    this.request?.destroy();
  }
}

async function answer(device: { token: string; baseUrl: string }, eventId: string, status: 'going' | 'maybe'): Promise<void> {
  const sent = performance.now();
  try {
    const answered = await post(device.baseUrl, `/api/attendance/${encodeURIComponent(eventId)}`, device.token, { status });
    const at = performance.now();
    if (answered.status >= 500 || answered.status === 429 || answered.status === 0) {
      writeFailures += 1;
      noteError(`answer: ${answered.status} ${(await textOf(answered)).slice(0, 120)}`);
      return;
    }
    writeTimes.push(at - sent);
    if (answered.status >= 400) writeRefusals += 1;
    // Kept in the order of the answers, as the streams tell them.
    let index = answeredAt.length;
    while (index > 0 && answeredAt[index - 1]! > at) index -= 1;
    answeredAt.splice(index, 0, at);
  } catch (error) {
    writeFailures += 1;
    noteError(`answer: ${String(error)}`);
  }
}

/**
 * This process's share when the devices are spread over several processes (`RUSH_PART=i/n`: each
 * process has its own file descriptors, and 4,000 devices hold ~24,000 connections): every n-th
 * device from the i-th, and every n-th answer, all on the same schedule from `RUSH_BEGIN` (epoch ms).
 */
const [PART, PARTS] = (process.env.RUSH_PART ?? '0/1').split('/').map(Number) as [number, number];
const mine = (index: number) => index % PARTS === PART;

async function main(): Promise<void> {
  const openMs = input.openSeconds * 1000;
  const startAt = Number(process.env.RUSH_BEGIN ?? Date.now());
  await sleep(Math.max(0, startAt - Date.now()));
  const devices: Device[] = [];
  const begin = performance.now();
  rushBegin = begin;
  const starts: Promise<void>[] = [];
  for (let i = 0; i < input.devices.length; i++) {
    if (!mine(i)) continue;
    const due = begin + (openMs * i) / input.devices.length;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const device = new Device(input.devices[i]!.token, input.devices[i]!.baseUrl);
    devices.push(device);
    starts.push(device.start());
  }
  await sleep(Math.max(0, begin + openMs - performance.now()));

  const writes: Promise<void>[] = [];
  const total = input.answersPerSecond * input.answerSeconds;
  const answersBegin = performance.now();
  answering = true;
  let random = 20_261_128;
  const next = () => {
    random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
    return random / 2_147_483_648;
  };
  for (let i = 0; i < total; i++) {
    const member = input.devices[Math.floor(next() * input.devices.length)]!;
    const eventId = input.events[Math.floor(next() * input.events.length)]!;
    const status = next() < 0.5 ? 'going' : 'maybe';
    if (!mine(i)) continue;
    const wait = answersBegin + (i * 1000) / input.answersPerSecond - performance.now();
    if (wait > 0) await sleep(wait);
    writes.push(answer(member, eventId, status));
  }
  await Promise.all(writes);
  // A write's change can reach a stream before its writer has the answer; such a write is counted at
  // the stream's next change. One more answer after the last counted one gives every write a next change.
  await sleep(300);
  const closing = input.devices[0]!;
  await post(closing.baseUrl, `/api/attendance/${encodeURIComponent(input.events[0]!)}`, closing.token, {
    status: 'going',
  }).catch(() => undefined);
  await Promise.all(starts);
  // The streams tell the last answers within their batch; 10 s at most.
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && devices.some((device) => device.unseen > 0 || !device.idle)) await sleep(50);
  stopping = true;
  const missing = devices.reduce((sum, device) => sum + device.unseen, 0);
  for (const device of devices) device.close();
  agent.destroy();

  const figures: RushDeviceFigures = {
    devices: devices.length,
    ...(PARTS > 1
      ? {
          samples: {
            pulls: pullTimes,
            opening: openingTimes,
            writes: writeTimes,
            fanOut: fanOutTimes,
            answeringPulls: answeringPullTimes,
          },
        }
      : {}),
    streams,
    pulls: { ...distribution(pullTimes), failed: pullFailures, shed: shedPulls, documents: pulledDocuments },
    carried: carriedDocuments,
    changePulls,
    answeringPulls: distribution(answeringPullTimes),
    opening: { ...distribution(openingTimes), incomplete: openingIncomplete },
    writes: { ...distribution(writeTimes), failed: writeFailures, refused: writeRefusals },
    fanOut: { ...distribution(fanOutTimes), missing },
    errors: pullFailures + writeFailures + streams.failed + streams.dropped,
    cpuSeconds: cpuSecondsUsed(),
    firstErrors,
  };
  console.error(`pulls over ${SLOW_PULL_MS} ms: ${JSON.stringify(slowPulls)}`);
  // To a pipe the write is asynchronous: exiting before it is done would cut a long line.
  await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(figures)}\n`, () => resolve()));
}

function cpuSecondsUsed(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

await main();
process.exit(0);
