/**
 * Seeds a club (the 5-season or the 10-season one, CLUBS) into a fresh SQLite database: the server's own migrations, then the admin
 * (the server's bootstrap finds it and creates none), stadiums, members, and per event (in date order)
 * the event, its transports, attendees and comments, so one event's rows sit next to each other in seq
 * order. Only the connection, the migrations, the password hashing and the username skeleton of the
 * server are used, so the seed keeps working while the domain code changes.
 */
import {
  AWAY_SUFFIX,
  CLUB_CASH_DESK,
  DEFAULT_TIME_ZONE,
  HOME_SUFFIX,
  newId,
  seasonOf,
  todayIn,
  usernameKey,
} from '@fankurve/shared';
import type { Insertable, Transaction } from 'kysely';
import { hashPassword } from '../../server/src/domain/people/passwords.js';
import { openConnection } from '../../server/src/db/connection.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { usernameSkeleton } from '../../server/src/db/usernameSkeleton.js';
import type { Database } from '../../server/src/db/schema.js';

export interface SeedSize {
  seasons: number;
  eventsPerSeason: number;
  members: number;
  /** Attendee rows of all seasons (guests and tombstones included). */
  attendees: number;
  comments: number;
}

/**
 * The clubs the bench measures side by side. Per season the same shape (60 events, 4,000 attendee
 * rows, 1,000 comments, the same 150 members); the 10-season club has five more older seasons.
 */
export const CLUBS = {
  fiveSeasons: { seasons: 5, eventsPerSeason: 60, members: 150, attendees: 20_000, comments: 5_000 },
  tenSeasons: { seasons: 10, eventsPerSeason: 60, members: 150, attendees: 40_000, comments: 10_000 },
} as const satisfies Record<string, SeedSize>;
export type ClubKey = keyof typeof CLUBS;

export interface SeededUser {
  id: string;
  username: string;
  password: string;
}

export interface SeededEvent {
  id: string;
  title: string;
  date: string;
}

export interface SeedResult {
  admin: SeededUser;
  /** Attends no upcoming event and owes nothing: the REST load and pulls run with its token, it signs in in the browser and answers 50 events. */
  benchMember: SeededUser;
  /** Upcoming events (from tomorrow on) without a row of the bench member, by date. */
  openUpcoming: SeededEvent[];
  /** Usernames of all seeded members (the bench member first), password `passwords.member`. */
  memberUsernames: string[];
  seasons: string[];
  size: SeedSize;
  counts: Record<
    'events' | 'upcomingEvents' | 'members' | 'attendees' | 'guests' | 'tombstones' | 'comments' | 'transports' | 'stadiums',
    number
  >;
  maxSeq: number;
  seedMs: number;
}

type Tx = Transaction<Database>;

/** A small deterministic PRNG (mulberry32), so every run seeds the same club shape. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    sample<T>(items: readonly T[], count: number): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, count);
    },
  };
}
type Random = ReturnType<typeof prng>;

export const CLUB = 'SV Musterstadt';
export const OPPONENTS = [
  'FC Nordhafen',
  'TSV Bergheim',
  'Eintracht Südfeld',
  'SC Westend',
  'VfB Altstadt',
  'Borussia Lindenau',
  'SpVgg Talheim',
  'Union Ostkreuz',
  'FSV Mühlbach',
  'Rot-Weiß Kleinau',
  'SG Auenwald',
  'Fortuna Seeburg',
  'Alemannia Hohenstein',
  'Germania Brückfeld',
  'Viktoria Rheinau',
  'Kickers Sandberg',
  'Hertha Waldau',
  'Arminia Felsdorf',
];
const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Emma',
  'Finn',
  'Greta',
  'Hannes',
  'Ida',
  'Jonas',
  'Karla',
  'Lukas',
  'Mia',
  'Noah',
];
const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Koch'];
const COMMENTS = [
  'Wer fährt mit dem Auto und hat noch einen Platz frei?',
  'Treffpunkt wie immer am Bahnhof, eine Stunde vor Abfahrt.',
  'Ich bringe die Fahne mit. Kann jemand beim Tragen helfen?',
  'Gibt es schon Infos zum Gästeblock? Stehplatz oder Sitzplatz?',
  'Bin leider erst zur zweiten Halbzeit da, Arbeit geht vor.',
  'Die Tickets sind da, bitte bis Freitag bezahlen!',
  'Wer hat Lust, vorher noch was essen zu gehen?',
  'Danke fürs Organisieren, war ein super Auswärtsspiel.',
  'Kann jemand mein Ticket abholen? Ich komme direkt vom Zug.',
  'Achtung: Abfahrt verschiebt sich um 30 Minuten nach hinten.',
];
export const KICK_OFFS = ['15:30:00', '15:30:00', '18:30:00', '13:30:00', '20:30:00', '17:30:00'];

const pad = (n: number) => String(n).padStart(2, '0');
export const dayString = (date: Date) => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
const isoBefore = (eventDate: string, days: number) =>
  new Date(Date.parse(`${eventDate.replace(' ', 'T')}Z`) - days * 86_400_000).toISOString();
/** A row's creation time: some days before its event, but never in the future. */
const createdBefore = (eventDate: string, days: number) => {
  const at = isoBefore(eventDate, days);
  const now = new Date().toISOString();
  return at < now ? at : now;
};

/**
 * The seasons end with the season of today + 240 days: then at least one season's worth of events
 * (≥ 50) is still ahead, whatever the day of the year the bench runs, and the newest seasons (the
 * current one, the upcoming events) are the same in every club size.
 */
export function seasonStarts(today: string, seasons: number): number[] {
  const ahead = new Date(Date.parse(`${today}T12:00:00Z`) + 240 * 86_400_000);
  const last = Number(seasonOf(dayString(ahead)).slice(0, 4));
  return Array.from({ length: seasons }, (_, i) => last - seasons + 1 + i);
}

interface Stadium {
  id: string;
  team: string;
  prices: { id: string; price_cents: number; ticket_type: string }[];
}

async function insertChunked<T extends keyof Database>(trx: Tx, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  // 25-odd columns × 400 rows stays well below SQLite's bound-variable limit (32766).
  for (let i = 0; i < rows.length; i += 400) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + 400) as never)
      .execute();
  }
}

async function seedStadiums(trx: Tx, random: Random, now: string): Promise<Stadium[]> {
  const teams = [CLUB, ...OPPONENTS.slice(0, 9)];
  const stadiums: Stadium[] = teams.map((team) => ({
    id: newId(),
    team,
    prices: [
      { id: newId(), price_cents: random.int(12, 20) * 100, ticket_type: 'Stehplatz' },
      { id: newId(), price_cents: random.int(28, 45) * 100, ticket_type: 'Sitzplatz' },
      ...(random.chance(0.5) ? [{ id: newId(), price_cents: random.int(8, 11) * 100, ticket_type: 'Ermäßigt' }] : []),
    ],
  }));
  await insertChunked(
    trx,
    'stadiums',
    stadiums.map((s, i) => ({
      id: s.id,
      team_name: s.team,
      stadium_name: `${s.team.split(' ').at(-1)}-Arena`,
      city: s.team.split(' ').at(-1)!,
      capacity: random.int(15, 60) * 1000,
      guest_block_capacity: random.int(10, 40) * 100,
      address: `Stadionweg ${i + 1}, ${s.team.split(' ').at(-1)}`,
      ticket_price_cents: s.prices[0]!.price_cents,
      created_at: now,
      updated_at: now,
    })),
  );
  await insertChunked(
    trx,
    'stadium_ticket_prices',
    stadiums.flatMap((s) => s.prices.map((p) => ({ ...p, stadium_id: s.id, created_at: now }))),
  );
  return stadiums;
}

interface PlannedEvent {
  id: string;
  title: string;
  date: string;
  stadium: Stadium | null;
  home: boolean;
  upcoming: boolean;
  rows: number;
}

function planEvents(random: Random, size: SeedSize, starts: number[], stadiums: Stadium[], today: string): PlannedEvent[] {
  const byTeam = new Map(stadiums.map((s) => [s.team, s]));
  const events: PlannedEvent[] = [];
  for (const year of starts) {
    const first = Date.UTC(year, 7, 1);
    const span = (Date.UTC(year + 1, 4, 31) - first) / 86_400_000;
    for (let k = 0; k < size.eventsPerSeason; k++) {
      const day = dayString(new Date(first + Math.round((k * span) / size.eventsPerSeason) * 86_400_000));
      const opponent = OPPONENTS[(k + year) % OPPONENTS.length]!;
      const home = k % 2 === 0;
      const date = `${day} ${random.pick(KICK_OFFS)}`;
      events.push({
        id: newId(),
        title: home ? `${CLUB} – ${opponent} ${HOME_SUFFIX}` : `${opponent} – ${CLUB} ${AWAY_SUFFIX}`,
        date,
        stadium: (home ? byTeam.get(CLUB) : byTeam.get(opponent)) ?? null,
        home,
        upcoming: day > today,
        rows: 0,
      });
    }
  }
  // Events far ahead have fewer answers yet; the weights are then scaled to the exact total.
  const weights = events.map((e) => {
    const daysAhead = (Date.parse(e.date.slice(0, 10)) - Date.parse(today)) / 86_400_000;
    return (e.upcoming ? Math.max(0.25, 1 - daysAhead / 300) : 0.8) * (0.75 + random.next() * 0.5);
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  let left = size.attendees;
  events.forEach((e, i) => {
    e.rows = Math.min(140, Math.floor((weights[i]! / sum) * size.attendees));
    left -= e.rows;
  });
  for (let i = 0; left > 0; i = (i + 1) % events.length) {
    if (events[i]!.rows < 140) {
      events[i]!.rows++;
      left--;
    }
  }
  return events;
}

interface MemberRef {
  id: string;
  username: string;
}

interface SeedState {
  size: SeedSize;
  seq: number;
  adminId: string;
  benchId: string;
  members: MemberRef[];
  counts: SeedResult['counts'];
}

function ticketFields(random: Random, event: PlannedEvent, past: boolean, mayOwe: boolean, state: SeedState) {
  const option = event.stadium ? random.pick(event.stadium.prices) : null;
  const price = option?.price_cents ?? random.int(15, 35) * 100;
  const bought = past || random.chance(0.5);
  const paid = bought && (past ? !(mayOwe && random.chance(0.03)) : !(mayOwe && random.chance(0.6)));
  return {
    ticket_price_id: option?.id ?? null,
    ticket_type: option?.ticket_type ?? null,
    price_cents: price,
    bought: bought ? 1 : 0,
    paid: paid ? 1 : 0,
    received: paid && (past || random.chance(0.3)) ? 1 : 0,
    paid_by: paid ? (random.chance(0.7) ? CLUB_CASH_DESK : state.adminId) : null,
    paid_requested: bought && !paid && random.chance(0.4) ? 1 : 0,
  };
}

function attendeeRow(
  random: Random,
  event: PlannedEvent,
  who: { user_id: string | null; guest_name: string | null; brought_by: string | null },
  state: SeedState,
  deleted: boolean,
): Insertable<Database['attendees']> {
  const past = !event.upcoming;
  const going = random.chance(past ? 0.9 : 0.75);
  const hasTicket = random.chance(0.15);
  const needsTicket = !hasTicket && random.chance(0.8);
  const needsTransport = !event.home && random.chance(0.6);
  const owner = who.user_id ?? who.brought_by;
  // Only answers of going members within three weeks or past got tickets; the bench member never owes.
  const soon = Date.parse(event.date.slice(0, 10)) - Date.now() < 21 * 86_400_000;
  const ticket =
    going && needsTicket && !deleted && (past || soon) ? ticketFields(random, event, past, owner !== state.benchId, state) : null;
  const created = createdBefore(event.date, random.int(2, 40));
  return {
    id: newId(),
    event_id: event.id,
    ...who,
    status: going ? 'going' : 'maybe',
    needs_ticket: needsTicket ? 1 : 0,
    has_ticket: hasTicket ? 1 : 0,
    needs_transport: needsTransport ? 1 : 0,
    transfer_status: needsTransport
      ? past
        ? 'reserved'
        : random.pick(['outstanding', 'reserved', 'waiting_list'] as const)
      : null,
    paid_by: ticket?.paid_by ?? null,
    ticket_price_id: ticket?.ticket_price_id ?? null,
    ticket_type: ticket?.ticket_type ?? null,
    price_cents: ticket?.price_cents ?? null,
    is_free: 0,
    is_price_tbd: 0,
    bought: ticket?.bought ?? 0,
    paid: ticket?.paid ?? 0,
    received: ticket?.received ?? 0,
    paid_requested: ticket?.paid_requested ?? 0,
    paid_requested_at: ticket?.paid_requested ? created : null,
    received_requested: 0,
    received_requested_at: null,
    created_at: created,
    updated_at: created,
    deleted: deleted ? 1 : 0,
    seq: ++state.seq,
  };
}

function eventAttendees(random: Random, event: PlannedEvent, state: SeedState): Insertable<Database['attendees']>[] {
  const guests = Math.round(event.rows * 0.12);
  const eligible = state.members.filter((m) => !(event.upcoming && m.id === state.benchId));
  const attending = random.sample(eligible, event.rows - guests);
  const rows = attending.map((m) => {
    const deleted = random.chance(0.03);
    if (deleted) state.counts.tombstones++;
    return attendeeRow(random, event, { user_id: m.id, guest_name: null, brought_by: null }, state, deleted);
  });
  const hosts = rows.filter((r) => !r.deleted).map((r) => r.user_id!);
  for (let g = 0; g < guests; g++) {
    const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
    rows.push(attendeeRow(random, event, { user_id: null, guest_name: name, brought_by: random.pick(hosts) }, state, false));
  }
  state.counts.attendees += rows.length;
  state.counts.guests += guests;
  return rows;
}

function eventTransports(random: Random, event: PlannedEvent, state: SeedState): Insertable<Database['transports']>[] {
  if (event.home) return [];
  const options = random.chance(0.4) ? ['Bus', 'Zug (Gruppenticket)'] : ['Bus'];
  return options.map((name) => {
    const free = random.chance(0.1);
    const created = createdBefore(event.date, 30);
    state.counts.transports++;
    return {
      id: newId(),
      event_id: event.id,
      name,
      price_per_seat_cents: free ? 0 : random.int(15, 45) * 100,
      is_free: free ? 1 : 0,
      is_price_tbd: 0,
      departure_datetime: `${isoBefore(event.date, 0.25).slice(0, 16).replace('T', ' ')}:00`,
      departure_location: 'Hauptbahnhof, Busparkplatz Nord',
      created_at: created,
      updated_at: created,
      seq: ++state.seq,
    };
  });
}

function eventComments(random: Random, event: PlannedEvent, count: number, state: SeedState): Insertable<Database['comments']>[] {
  return Array.from({ length: count }, () => {
    const created = createdBefore(event.date, random.int(0, 20) + random.next());
    const requiresAnswer = random.chance(0.1);
    return {
      id: newId(),
      event_id: event.id,
      user_id: random.pick(state.members).id,
      comment: random.pick(COMMENTS),
      requires_answer: requiresAnswer ? 1 : 0,
      is_resolved: requiresAnswer && random.chance(0.5) ? 1 : 0,
      created_at: created,
      updated_at: created,
      seq: ++state.seq,
    };
  });
}

async function seedMembers(trx: Tx, state: SeedState, passwordHash: string, now: string): Promise<void> {
  state.members = Array.from({ length: state.size.members }, (_, i) => ({
    id: newId(),
    username: `fan${String(i + 1).padStart(3, '0')}`,
  }));
  await insertChunked(
    trx,
    'users',
    state.members.map((m) => ({
      id: m.id,
      username: m.username,
      username_key: usernameKey(m.username),
      username_skeleton: usernameSkeleton(m.username),
      email: `${m.username}@example.org`,
      password_hash: passwordHash,
      scope: 'user' as const,
      status: 'active' as const,
      language: 'de' as const,
      must_change_password: 0,
      token_version: 0,
      created_at: now,
      updated_at: now,
      seq: ++state.seq,
    })),
  );
  state.counts.members = state.members.length + 1;
}

async function seedEvents(trx: Tx, random: Random, events: PlannedEvent[], state: SeedState): Promise<void> {
  // Comments spread like attendance: busier events are talked about more.
  const { attendees, comments: total } = state.size;
  const perEvent = events.map((e) => Math.floor((e.rows / attendees) * total));
  for (let i = 0, left = total - perEvent.reduce((a, b) => a + b, 0); left > 0; i++, left--) perEvent[i]!++;
  const batch = { events: [] as Insertable<Database['events']>[], attendees: [] as Insertable<Database['attendees']>[] };
  const transports: Insertable<Database['transports']>[] = [];
  const comments: Insertable<Database['comments']>[] = [];
  events.forEach((event, i) => {
    const created = createdBefore(event.date, 60);
    batch.events.push({
      id: event.id,
      title: event.title,
      description: event.home ? null : 'Abfahrt und Treffpunkt siehe Fahrten.',
      date: event.date,
      location: event.stadium ? `${event.stadium.team.split(' ').at(-1)}-Arena` : 'Stadion',
      stadium_id: event.stadium?.id ?? null,
      ticket_price_cents: event.stadium?.prices[0]?.price_cents ?? 2000,
      ticket_buyer: event.home ? null : 'Fanbeauftragter',
      is_updated: 0,
      created_by: state.adminId,
      image_filename: null,
      external_match_id: null,
      created_at: created,
      updated_at: created,
      seq: ++state.seq,
    });
    transports.push(...eventTransports(random, event, state));
    batch.attendees.push(...eventAttendees(random, event, state));
    comments.push(...eventComments(random, event, perEvent[i]!, state));
  });
  await insertChunked(trx, 'events', batch.events);
  await insertChunked(trx, 'transports', transports);
  await insertChunked(trx, 'attendees', batch.attendees);
  await insertChunked(trx, 'comments', comments);
  state.counts.events = events.length;
  state.counts.upcomingEvents = events.filter((e) => e.upcoming).length;
  state.counts.comments = comments.length;
}

async function seedAdmin(trx: Tx, state: SeedState, passwordHash: string, now: string): Promise<MemberRef> {
  const admin = { id: newId(), username: 'admin' };
  await trx
    .insertInto('users')
    .values({
      ...admin,
      username_key: usernameKey(admin.username),
      username_skeleton: usernameSkeleton(admin.username),
      email: 'admin@localhost',
      password_hash: passwordHash,
      scope: 'admin',
      status: 'active',
      language: 'de',
      must_change_password: 0,
      token_version: 0,
      created_at: now,
      updated_at: now,
      seq: ++state.seq,
    })
    .execute();
  state.adminId = admin.id;
  return admin;
}

export async function seedClub(
  dataDir: string,
  passwords: { admin: string; member: string },
  size: SeedSize = CLUBS.fiveSeasons,
  /** A PostgreSQL database to seed instead of the SQLite file in dataDir. */
  databaseUrl?: string,
): Promise<SeedResult> {
  const started = performance.now();
  const connection = openConnection({ databaseUrl: databaseUrl ?? null, dataDir });
  const random = prng(20_260_701);
  const today = todayIn(DEFAULT_TIME_ZONE);
  const now = new Date().toISOString();
  try {
    await migrateToLatest(connection.db, connection.dialect);
    const counter = await connection.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'seq')
      .executeTakeFirstOrThrow();
    const state: SeedState = {
      size,
      seq: Number(counter.value),
      adminId: '',
      benchId: '',
      members: [],
      counts: {
        events: 0,
        upcomingEvents: 0,
        members: 0,
        attendees: 0,
        guests: 0,
        tombstones: 0,
        comments: 0,
        transports: 0,
        stadiums: 0,
      },
    };
    // One argon2 hash per password (the server's own parameters), reused by every member.
    const [adminHash, memberHash] = [await hashPassword(passwords.admin), await hashPassword(passwords.member)];
    const starts = seasonStarts(today, size.seasons);
    let planned: PlannedEvent[] = [];
    let admin: MemberRef = { id: '', username: '' };
    await connection.db.transaction().execute(async (trx) => {
      admin = await seedAdmin(trx, state, adminHash, now);
      const stadiums = await seedStadiums(trx, random, now);
      state.counts.stadiums = stadiums.length;
      await seedMembers(trx, state, memberHash, now);
      state.benchId = state.members[0]!.id;
      planned = planEvents(random, size, starts, stadiums, today);
      await seedEvents(trx, random, planned, state);
      await trx.updateTable('counters').set({ value: state.seq }).where('name', '=', 'seq').execute();
    });
    const tomorrow = dayString(new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000));
    return {
      admin: { ...admin, password: passwords.admin },
      benchMember: { ...state.members[0]!, password: passwords.member },
      openUpcoming: planned.filter((e) => e.date.slice(0, 10) >= tomorrow).map(({ id, title, date }) => ({ id, title, date })),
      memberUsernames: state.members.map((m) => m.username),
      seasons: starts.map((year) => `${year}/${pad((year + 1) % 100)}`),
      size,
      counts: state.counts,
      maxSeq: state.seq,
      seedMs: performance.now() - started,
    };
  } finally {
    await connection.close();
  }
}
