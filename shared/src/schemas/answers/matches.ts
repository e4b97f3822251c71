import { z } from 'zod';
import { messageCode, successAnswer, textOrNull } from './common.js';

/* Answers of the fixture import routes (server/src/http/matches.ts; docs/architecture.md, "Fixture import"). */

const issue = z.strictObject({
  code: messageCode,
  message: z.string().meta({ description: 'English text; details follow after ": "' }),
  matchId: z.number().int().nullable(),
});

const counts = {
  created: z.number().int().meta({ description: 'Matches that became new events' }),
  updated: z.number().int().meta({ description: 'Events whose kick-off, date, place or stadium the feed changed' }),
  skipped: z.number().int().meta({ description: 'Matches unchanged since the last import, or whose event an admin deleted' }),
  errors: z.array(issue).meta({ description: 'Matches that could not be imported; the service failure on 502' }),
};

/** POST /api/events/sync-matches: what the import did (shared/src/matchImport.ts `MatchImportResult`). */
export const matchSyncAnswer = successAnswer({
  message: z.string(),
  season: z.string().meta({ example: '2025/26' }),
  teamId: z.number().int(),
  ...counts,
  vanished: z
    .array(z.strictObject({ matchId: z.number().int(), eventId: z.string(), title: z.string(), date: z.string() }))
    .meta({ description: "This season's imported matches the feed no longer lists (their events are kept)" }),
}).meta({ id: 'MatchSyncResult' });
export type MatchSyncAnswer = z.infer<typeof matchSyncAnswer>;

/** POST /api/events/sync-matches failed at the match service (502): nothing was written. */
export const matchSyncFailure = z
  .strictObject({ success: z.literal(false), code: messageCode, message: z.string(), ...counts })
  .meta({ id: 'MatchSyncFailure' });
export type MatchSyncFailure = z.infer<typeof matchSyncFailure>;

/** A team of a league at the match service (its teamId is what the team configuration stores). */
export const leagueTeam = z.strictObject({
  teamId: z.number().int(),
  teamName: z.string(),
  shortName: textOrNull,
  teamIconUrl: textOrNull,
});
export type LeagueTeam = z.infer<typeof leagueTeam>;

/** GET /api/config/teams/{league}/{season} (admin). */
export const leagueTeamsAnswer = successAnswer({ teams: z.array(leagueTeam) }).meta({ id: 'LeagueTeams' });
export type LeagueTeamsAnswer = z.infer<typeof leagueTeamsAnswer>;
