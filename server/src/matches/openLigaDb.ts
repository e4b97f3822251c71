import { cleanFreeText, type MessageCode } from '@fankurve/shared';
import { z } from 'zod';

/*
 * The wire format of OpenLigaDB (https://api.openligadb.de, the open football-data service at
 * FOOTBALL_DATA_URL): its JSON answers as types, the two calls the app makes, a timeout, and the
 * validation of what comes back. Nothing here knows about events; matches/mapping.ts maps.
 *
 * Calls used (documented at https://api.openligadb.de/swagger, examples in
 * github.com/OpenLigaDB/OpenLigaDB-Samples):
 *
 * - GET /getmatchesbyteamid/{teamId}/{weekCountPast}/{weekCountFuture}: the matches of one team in
 *   every competition the service has (league and cups), from that many weeks before today to that
 *   many after. One request covers the club's whole season, so the import uses it instead of
 *   GET /getmatchdata/{league}/{season} (a whole league, ~300 matches, and the competitions would
 *   have to be known first).
 * - GET /getavailableteams/{leagueShortcut}/{leagueSeason}: the teams of a league and season, for
 *   the team finder of the configuration (`teamId` is what the import needs).
 *
 * Calls not used: GET /getlastchangedate/{league}/{season}/{groupOrderId} answers the last change
 * of one matchday (group) only, so watching a season through it costs a request per matchday (34 and
 * more) — more than the one team request above. The service's last-change date the import uses is
 * the one every match carries (`lastUpdateDateTime`). GET /getavailableleagues lists thousands of
 * community leagues; the team finder offers the usual shortcuts (bl1, bl2, bl3, dfb) and free text.
 *
 * Shapes (the service's Match, Team and Location schemas): a match is
 * `{ matchID, matchDateTime (the service's local time, no zone), timeZoneID ("W. Europe Standard
 * Time"), leagueId, leagueName, leagueSeason (the year the season starts), leagueShortcut,
 * matchDateTimeUTC ("2025-08-23T13:30:00Z"), group: { groupName, groupOrderID, groupID },
 * team1 (home) and team2 (away): { teamId, teamName, shortName, teamIconUrl, teamGroupName },
 * lastUpdateDateTime (service time, no zone), matchIsFinished, matchResults[], goals[],
 * location: { locationID, locationCity, locationStadium } or null, numberOfViewers }`; every text
 * field may be null, `location` may be missing or hold empty or null parts. Unknown fields are
 * ignored, so a field the service adds breaks nothing.
 */

/** How long one call may take before it counts as unreachable. */
export const FEED_TIMEOUT_MS = 10_000;
/** Larger answers are refused (a season of one team is ~50 kB; a league ~1 MB). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
/** Redirects followed within the service's own address (a moved path); one to another address is refused. */
export const MAX_FEED_REDIRECTS = 3;

/**
 * A text of the feed, cleaned like free text (rules/freeText.ts): control and direction characters
 * removed, tabs and line breaks made spaces, trimmed. Nobody can be asked to fix it, so it is not
 * refused; the lengths of the fields it goes into are mapping.ts's.
 */
const feedText = z.string().transform((value) => cleanFreeText(value, 'line', Number.MAX_SAFE_INTEGER));
const text = feedText.nullish();

export const feedTeamSchema = z.object({
  teamId: z.number().int().positive(),
  teamName: feedText.pipe(z.string().min(1)),
  shortName: text,
  teamIconUrl: text,
  teamGroupName: text,
});
export type FeedTeam = z.infer<typeof feedTeamSchema>;

export const feedLocationSchema = z.object({
  locationID: z.number().int().nullish(),
  locationCity: text,
  locationStadium: text,
});
export type FeedLocation = z.infer<typeof feedLocationSchema>;

export const feedGroupSchema = z.object({
  groupName: text,
  groupOrderID: z.number().int().nullish(),
  groupID: z.number().int().nullish(),
});

/** `leagueSeason` is a number in matches and a string in the league list: both are read as a number. */
const seasonYear = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{4}$/)
    .transform(Number),
]);

export const feedMatchSchema = z.object({
  matchID: z.number().int().positive(),
  matchDateTime: text,
  timeZoneID: text,
  leagueId: z.number().int().nullish(),
  leagueName: text,
  leagueSeason: seasonYear,
  leagueShortcut: text,
  matchDateTimeUTC: text,
  group: feedGroupSchema.nullish(),
  team1: feedTeamSchema,
  team2: feedTeamSchema,
  lastUpdateDateTime: text,
  matchIsFinished: z.boolean().nullish(),
  location: feedLocationSchema.nullish(),
});
export type FeedMatch = z.infer<typeof feedMatchSchema>;

/** A match of the answer that does not have the shape above: reported, the others still count. */
export interface InvalidFeedMatch {
  /** Its matchID when it has a readable one. */
  matchId: number | null;
  /** The first problem, e.g. `team2.teamName: Invalid input`. */
  issue: string;
}

export type FeedFailure = Extract<
  MessageCode,
  'matchServiceUnreachable' | 'matchServiceError' | 'matchServiceBadAnswer' | 'matchServiceRedirected' | 'matchTeamUnknown'
>;

/** The service could not be asked or its answer not read: `code` says which, `detail` what exactly. */
export class FeedError extends Error {
  constructor(
    readonly code: FeedFailure,
    readonly detail: string,
    /** The HTTP status the service answered, if it answered. */
    readonly status: number | null = null,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'FeedError';
  }
}

export interface OpenLigaDbOptions {
  /** FOOTBALL_DATA_URL, e.g. `https://api.openligadb.de` (a path prefix is kept). */
  baseUrl: string;
  timeoutMs?: number;
}

/** The two calls of the app, validated. Every failure is a FeedError. */
export class OpenLigaDb {
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(options: OpenLigaDbOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  }

  /**
   * The team's matches in all competitions from `weeksPast` weeks before today to `weeksFuture`
   * after (the service's today). A 404 or an empty answer means the service knows no matches of
   * the team: 'matchTeamUnknown'. Matches of another shape are returned apart.
   */
  async matchesOfTeam(
    teamId: number,
    weeksPast: number,
    weeksFuture: number,
  ): Promise<{ matches: FeedMatch[]; invalid: InvalidFeedMatch[] }> {
    const path = `/getmatchesbyteamid/${teamId}/${weeksPast}/${weeksFuture}`;
    const items = await this.getArray(path, 'matchTeamUnknown');
    if (items.length === 0) throw new FeedError('matchTeamUnknown', `team ${teamId}`);
    const matches: FeedMatch[] = [];
    const invalid: InvalidFeedMatch[] = [];
    for (const item of items) {
      const parsed = feedMatchSchema.safeParse(item);
      if (parsed.success) matches.push(parsed.data);
      else invalid.push({ matchId: matchIdOf(item), issue: firstIssue(parsed.error) });
    }
    return { matches, invalid };
  }

  /** The teams of a league and season; none (an empty list) when the service knows no such league. */
  async teamsOf(leagueShortcut: string, season: number): Promise<FeedTeam[]> {
    const path = `/getavailableteams/${encodeURIComponent(leagueShortcut)}/${season}`;
    let items: unknown[];
    try {
      items = await this.getArray(path, 'matchServiceError');
    } catch (error) {
      if (error instanceof FeedError && error.status === 404) return [];
      throw error;
    }
    const teams = z.array(feedTeamSchema).safeParse(items);
    if (!teams.success) throw new FeedError('matchServiceBadAnswer', firstIssue(teams.error));
    return teams.data;
  }

  /** GETs a JSON array. An empty body counts as an empty array (the service answers so for "nothing"). */
  private async getArray(path: string, onNotFound: FeedFailure): Promise<unknown[]> {
    const response = await this.fetchWithinService(new URL(`${this.base}${path}`));
    let body: string;
    try {
      body = await readLimited(response);
    } catch (error) {
      throw new FeedError(response.ok ? 'matchServiceBadAnswer' : 'matchServiceError', describe(error), response.status);
    }
    if (response.status === 404) throw new FeedError(onNotFound, 'HTTP 404', 404);
    if (!response.ok) throw new FeedError('matchServiceError', `HTTP ${response.status}`, response.status);
    if (body.trim() === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new FeedError('matchServiceBadAnswer', `not JSON (${excerpt(body)})`, response.status);
    }
    if (json === null) return [];
    if (!Array.isArray(json))
      throw new FeedError('matchServiceBadAnswer', `expected a list, got ${typeof json}`, response.status);
    return json;
  }

  /**
   * GETs a URL of the service, following at most MAX_FEED_REDIRECTS redirects that stay at its
   * address (`mayFollow`). A redirect elsewhere is never followed ('matchServiceRedirected'): the
   * server asks FOOTBALL_DATA_URL and no address the service, or whoever answers in its name, names.
   */
  private async fetchWithinService(url: URL): Promise<Response> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let current = url;
    for (let hops = 0; ; hops++) {
      let response: Response;
      try {
        response = await fetch(current, { headers: { Accept: 'application/json' }, signal, redirect: 'manual' });
      } catch (error) {
        const reason =
          error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : describe(error);
        throw new FeedError('matchServiceUnreachable', reason);
      }
      if (!REDIRECT_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      const status = response.status;
      const location = response.headers.get('location');
      const next = location ? URL.parse(location, current.href) : null;
      if (!next) throw new FeedError('matchServiceError', `HTTP ${status} without a readable Location`, status);
      if (!mayFollow(current, next)) throw new FeedError('matchServiceRedirected', `HTTP ${status} to ${next.origin}`, status);
      if (hops >= MAX_FEED_REDIRECTS)
        throw new FeedError('matchServiceError', `more than ${MAX_FEED_REDIRECTS} redirects`, status);
      current = next;
    }
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect stays at the service: the same origin, or the same host name moving from http to https. */
function mayFollow(from: URL, to: URL): boolean {
  if (to.origin === from.origin) return true;
  return to.hostname === from.hostname && from.protocol === 'http:' && to.protocol === 'https:' && to.port === '';
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function matchIdOf(item: unknown): number | null {
  if (item && typeof item === 'object' && 'matchID' in item) {
    const id = (item as { matchID: unknown }).matchID;
    if (typeof id === 'number' && Number.isInteger(id)) return id;
  }
  return null;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

const excerpt = (body: string) => {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
};
