/**
 * The server's RSS as a user's server: what a club that installs the app and uses it for some seasons
 * sees, rather than a club seeded straight into the database. The server is started as `npm start`
 * starts it (server.ts serverCommand: the built bundle, its heap cap) on a fresh, empty data folder
 * (the embedded SQLite database, the admin from ADMIN_USERNAME/ADMIN_PASSWORD) with the built client,
 * and the club is built through the public HTTP API only: the admin signs in; 150 members register
 * (each from an address of its own, as from their phones: X-Forwarded-For, TRUST_PROXY=1), are
 * approved and sign in; the admin creates 300 events over five seasons; each member answers about
 * 40 % of them; then the REST list load of rest.ts (the clubs' figure, the same function) runs with a
 * member's token. The seasons are lived one after the other: the admin creates a season's events,
 * the members answer them, then the season's past events move to their dates. A past event is
 * created on a stand-in date years ahead (only an upcoming event takes answers) and moved to its
 * date once answered, its UPDATED mark cleared, as time would have done.
 * The server's RSS is read at start, after the members, after the answers and after the list load,
 * and sampled every 250 ms for its maximum. Why: a seeded club's server has done none of the club's
 * work (password hashes, tens of thousands of writes); a club's own server has, and its RSS is what
 * the small machine a club runs the app on must hold.
 */
import path from 'node:path';
import fs from 'node:fs';
import { AWAY_SUFFIX, DEFAULT_TIME_ZONE, HOME_SUFFIX, todayIn } from '@fankurve/shared';
import { json } from './http.js';
import { benchRest, type RestFigures, type RestOptions } from './rest.js';
import { CLUB, dayString, KICK_OFFS, OPPONENTS, prng, seasonStarts } from './seed.js';
import { memoryOf, startAppServer, type ServerCommand } from './server.js';

const MEMBERS = 150;
const SEASONS = 5;
const EVENTS_PER_SEASON = 60;
/** The share of the events each member answers. */
const ANSWER_SHARE = 0.4;
/** Requests in flight at once (http.ts's agent keeps 4 sockets; the server hashes 2 passwords at a time). */
const CONCURRENCY = 4;
/** A past event is first created this many years later (a multiple of 4, so a 29 February stays a date). */
const STAND_IN_YEARS = 8;
const SAMPLE_MS = 250;

export interface RssFigures {
  rssMiB: number;
  /** VmHWM: the process's peak so far, as the kernel counts it. */
  peakMiB: number;
}

export interface UserServerFigures {
  members: number;
  events: number;
  pastEvents: number;
  answers: number;
  rss: {
    start: RssFigures;
    afterMembers: RssFigures;
    afterAnswers: RssFigures;
    afterListLoad: RssFigures;
    /** The most of the samples every 250 ms over the whole part. */
    maxSampledMiB: number;
  };
  /** How long each step took: the past events' moves to their dates are counted apart from the answers. */
  ms: { members: number; events: number; answers: number; moves: number; listLoad: number; total: number };
  listLoad: RestFigures;
}

export interface UserServerOptions {
  workDir: string;
  command: ServerCommand;
  clientDir: string;
  passwords: { admin: string; member: string };
  jwtSecret: string;
  rest: Omit<RestOptions, 'warmupS'>;
  log(message: string): void;
}

interface Member {
  username: string;
  token: string;
}

interface PlannedEvent {
  title: string;
  location: string;
  /** `YYYY-MM-DD HH:MM:SS`, the club's wall clock. */
  date: string;
  past: boolean;
  ticketPrice: number;
}

type Random = ReturnType<typeof prng>;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sinceMs = (started: number) => Math.round(performance.now() - started);

/** Runs `task` for every item, at most `width` at a time, in the items' order. */
async function inPool<T>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** Reads the server's RSS now and every SAMPLE_MS, keeping the most seen. */
function rssSampler(pid: number) {
  let maxMiB = 0;
  const read = (): RssFigures => {
    const { rssMiB, peakMiB } = memoryOf(pid);
    maxMiB = Math.max(maxMiB, rssMiB);
    return { rssMiB, peakMiB };
  };
  const timer = setInterval(() => {
    try {
      read();
    } catch {
      // the process has ended; the step that needed it reports why
    }
  }, SAMPLE_MS);
  return { read, maxMiB: () => maxMiB, stop: () => clearInterval(timer) };
}

/** Register, be approved by the admin, sign in: one member, from the member's own address. */
async function joinClub(baseUrl: string, adminToken: string, index: number, password: string): Promise<Member> {
  const username = `fan${String(index + 1).padStart(3, '0')}`;
  const address = `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const from = { 'x-forwarded-for': address };
  const registered = await json<{ user: { id: string } }>(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: from,
    body: { username, email: `${username}@example.org`, password, language: 'de' },
  });
  await json(`${baseUrl}/api/auth/users/${registered.user.id}/approve`, { method: 'PUT', headers: bearer(adminToken) });
  const { token } = await json<{ token: string }>(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: from,
    body: { username, password },
  });
  return { username, token };
}

async function joinMembers(baseUrl: string, adminToken: string, password: string): Promise<Member[]> {
  const members: Member[] = [];
  await inPool(
    Array.from({ length: MEMBERS }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      members[i] = await joinClub(baseUrl, adminToken, i, password);
    },
  );
  return members;
}

/** Five seasons of 60 matches each, August to May, home and away in turn (the seeded clubs' shape). */
function planSeasons(random: Random, today: string): PlannedEvent[][] {
  return seasonStarts(today, SEASONS).map((year) => {
    const first = Date.UTC(year, 7, 1);
    const span = (Date.UTC(year + 1, 4, 31) - first) / 86_400_000;
    return Array.from({ length: EVENTS_PER_SEASON }, (_, k) => {
      const day = dayString(new Date(first + Math.round((k * span) / EVENTS_PER_SEASON) * 86_400_000));
      const opponent = OPPONENTS[(k + year) % OPPONENTS.length]!;
      const home = k % 2 === 0;
      return {
        title: home ? `${CLUB} – ${opponent} ${HOME_SUFFIX}` : `${opponent} – ${CLUB} ${AWAY_SUFFIX}`,
        location: `${(home ? CLUB : opponent).split(' ').at(-1)}-Arena`,
        date: `${day} ${random.pick(KICK_OFFS)}`,
        past: day < today,
        ticketPrice: random.int(12, 35),
      };
    });
  });
}

const standIn = (date: string) => `${Number(date.slice(0, 4)) + STAND_IN_YEARS}${date.slice(4)}`;

/** The admin creates the events, a past one on its stand-in date; answers their ids in order. */
async function createEvents(baseUrl: string, adminToken: string, events: PlannedEvent[]): Promise<string[]> {
  const ids: string[] = [];
  await inPool(events, CONCURRENCY, async (event, i) => {
    const created = await json<{ event: { id: string } }>(`${baseUrl}/api/events`, {
      method: 'POST',
      headers: bearer(adminToken),
      body: {
        title: event.title,
        location: event.location,
        date: event.past ? standIn(event.date) : event.date,
        ticket_price: event.ticketPrice,
        ...(event.title.endsWith(AWAY_SUFFIX) ? { ticket_buyer: 'Fanbeauftragter' } : {}),
      },
    });
    ids[i] = created.event.id;
  });
  return ids;
}

/** Each member answers about ANSWER_SHARE of the events, three in four going; answers the number of answers. */
async function answerEvents(baseUrl: string, members: Member[], eventIds: string[], random: Random): Promise<number> {
  const answers = eventIds.flatMap((eventId) =>
    members
      .filter(() => random.chance(ANSWER_SHARE))
      .map((member) => ({ eventId, token: member.token, status: random.chance(0.75) ? 'going' : 'maybe' })),
  );
  await inPool(answers, CONCURRENCY, async ({ eventId, token, status }) => {
    await json(`${baseUrl}/api/attendance/${eventId}`, { method: 'POST', headers: bearer(token), body: { status } });
  });
  return answers.length;
}

/** Time passes: each past event goes to its date, and the admin clears the UPDATED mark the move set. */
async function moveToTheirDates(baseUrl: string, adminToken: string, events: PlannedEvent[], ids: string[]): Promise<void> {
  const past = events.flatMap((event, i) => (event.past ? [{ date: event.date, id: ids[i]! }] : []));
  await inPool(past, CONCURRENCY, async ({ date, id }) => {
    await json(`${baseUrl}/api/events/${id}`, { method: 'PUT', headers: bearer(adminToken), body: { date } });
    await json(`${baseUrl}/api/events/${id}/clear-updated`, { method: 'PUT', headers: bearer(adminToken) });
  });
}

interface SeasonsPlayed {
  events: number;
  pastEvents: number;
  answers: number;
  ms: { events: number; answers: number; moves: number };
}

/**
 * Season by season, as a club lives them: the admin creates a season's events, the members answer
 * them, and the season's past events move to their dates; so only one season's events (and the
 * next one's, at the end) are ever upcoming at once.
 */
async function playSeasons(baseUrl: string, adminToken: string, members: Member[]): Promise<SeasonsPlayed> {
  const random = prng(20_261_128);
  const played: SeasonsPlayed = { events: 0, pastEvents: 0, answers: 0, ms: { events: 0, answers: 0, moves: 0 } };
  const timed = async <T>(step: keyof SeasonsPlayed['ms'], work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    played.ms[step] += sinceMs(started);
    return result;
  };
  for (const season of planSeasons(random, todayIn(DEFAULT_TIME_ZONE))) {
    const ids = await timed('events', () => createEvents(baseUrl, adminToken, season));
    played.answers += await timed('answers', () => answerEvents(baseUrl, members, ids, random));
    await timed('moves', () => moveToTheirDates(baseUrl, adminToken, season, ids));
    played.events += ids.length;
    played.pastEvents += season.filter((event) => event.past).length;
  }
  return played;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The steps on a running server, its RSS read after each; `started` is when the part began. */
async function measure(
  baseUrl: string,
  rss: ReturnType<typeof rssSampler>,
  options: UserServerOptions,
  started: number,
): Promise<UserServerFigures> {
  const { log } = options;
  const start = rss.read();
  log(`  user's server: RSS ${start.rssMiB.toFixed(1)} MiB at start; ${MEMBERS} members join…`);
  const admin = await json<{ token: string }>(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    body: { username: 'admin', password: options.passwords.admin },
  });
  let step = performance.now();
  const members = await joinMembers(baseUrl, admin.token, options.passwords.member);
  const membersMs = sinceMs(step);
  const afterMembers = rss.read();
  log(`  user's server: members in ${seconds(membersMs)}, RSS ${afterMembers.rssMiB.toFixed(1)} MiB; ${SEASONS} seasons…`);

  const { ms, ...played } = await playSeasons(baseUrl, admin.token, members);
  const afterAnswers = rss.read();
  log(
    `  user's server: ${played.events} events (${seconds(ms.events)}), ${played.answers} answers (${seconds(ms.answers)}), ` +
      `moves (${seconds(ms.moves)}), RSS ${afterAnswers.rssMiB.toFixed(1)} MiB; the list load…`,
  );

  step = performance.now();
  const listLoad = await benchRest(baseUrl, members[0]!.token, path.join(options.workDir, 'user-server'), {
    ...options.rest,
    warmupS: 2,
  });
  const listLoadMs = sinceMs(step);
  const afterListLoad = rss.read();
  log(`  user's server: RSS ${afterListLoad.rssMiB.toFixed(1)} MiB after the list load (max sampled ${rss.maxMiB().toFixed(1)})`);
  return {
    members: members.length,
    ...played,
    rss: { start, afterMembers, afterAnswers, afterListLoad, maxSampledMiB: rss.maxMiB() },
    ms: { members: membersMs, ...ms, listLoad: listLoadMs, total: sinceMs(started) },
    listLoad,
  };
}

export async function benchUserServer(options: UserServerOptions): Promise<UserServerFigures> {
  const started = performance.now();
  const dataDir = path.join(options.workDir, 'user-server', 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await startAppServer({
    dataDir,
    adminPassword: options.passwords.admin,
    jwtSecret: options.jwtSecret,
    command: options.command,
    clientDir: options.clientDir,
  });
  options.log(`  user's server: pid ${server.pid} on ${server.baseUrl}`);
  const rss = rssSampler(server.pid);
  try {
    return await measure(server.baseUrl, rss, options, started);
  } finally {
    rss.stop();
    await server.stop();
  }
}
