import {
  errorAnswer,
  leagueTeamsAnswer,
  matchSyncAnswer,
  matchSyncFailure,
  MESSAGES,
  type MatchImportResult,
  type MessageCode,
} from '@fankurve/shared';
import { importMatches } from '../matches/importMatches.js';
import { findLeagueTeams } from '../matches/teamFinder.js';
import { FeedError, OpenLigaDb } from '../matches/openLigaDb.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

/*
 * The fixture import's routes (docs/architecture.md, "Fixture import"), admin only: the import
 * itself and the team finder of the team configuration. They parse and call matches/*; a failure of
 * the match service answers 502 with its code ('Failed to sync matches' with the detail), and the
 * import's answer also the zero counts.
 */

const teamsParams = z.object({
  league: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, { error: 'matchLeagueInvalid' satisfies MessageCode }),
  season: z
    .string()
    .regex(/^\d{4}$/, { error: 'matchSeasonInvalid' satisfies MessageCode })
    .transform(Number)
    .refine((year) => year >= 2000 && year <= 2100, { error: 'matchSeasonInvalid' satisfies MessageCode }),
});

/** The text of a service failure: the message and the detail. */
const failureText = (error: FeedError) => `${MESSAGES[error.code]}: ${error.detail}`;

export function matchRoutes(app: Api, deps: AppDeps): void {
  const tag = 'Matches';
  const feed = () => new OpenLigaDb({ baseUrl: deps.config.footballDataUrl });

  // Admins only, checked before the input (access 'admin'): a member learns nothing about what the route expects.
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/sync-matches',
      tag,
      summary:
        "Imports the configured team's matches of the current season from the match service (FOOTBALL_DATA_URL) as events (admin; no body)",
      access: 'admin',
      answers: {
        200: { schema: matchSyncAnswer, description: 'The counts' },
        409: { schema: errorAnswer, description: 'No valid team configured (`matchTeamNotConfigured`)' },
        502: {
          schema: matchSyncFailure,
          description: 'The match service failed (unreachable, error, unreadable, unknown team): nothing was written',
        },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      let result: MatchImportResult;
      try {
        result = await importMatches(deps.store, actor, { feed: feed(), timeZone: deps.config.clubTimeZone });
      } catch (error) {
        if (!(error instanceof FeedError)) throw error;
        const message = failureText(error);
        const errors = [{ code: error.code, message, matchId: null }];
        return c.json({ success: false as const, code: error.code, message, created: 0, updated: 0, skipped: 0, errors }, 502);
      }
      return c.json({ success: true as const, message: MESSAGES.matchesSynced, ...result }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/config/teams/{league}/{season}',
      tag,
      summary: 'The teams of a league and season at the match service, by name, for the team finder (admin; e.g. bl1/2025)',
      params: teamsParams,
      access: 'admin',
      answers: {
        200: { schema: leagueTeamsAnswer, description: 'The teams' },
        502: { schema: errorAnswer, description: 'The match service failed' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { league, season } = c.req.valid('param');
      try {
        const teams = await findLeagueTeams(actor, feed(), league, season);
        return c.json(
          {
            success: true as const,
            teams: teams.map((team) => ({
              teamId: team.teamId,
              teamName: team.teamName,
              shortName: team.shortName ?? null,
              teamIconUrl: team.teamIconUrl ?? null,
            })),
          },
          200,
        );
      } catch (error) {
        if (!(error instanceof FeedError)) throw error;
        return c.json({ success: false as const, code: error.code, message: failureText(error) }, 502);
      }
    },
  );
}
