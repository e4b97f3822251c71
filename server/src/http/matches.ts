import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { MESSAGES, type MessageCode } from '@fankurve/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { requireAdmin } from '../domain/actor.js';
import type { MatchImportResult } from '@fankurve/shared';
import { findLeagueTeams, importMatches } from '../matches/importMatches.js';
import { FeedError, OpenLigaDb } from '../matches/openLigaDb.js';
import type { Api, AppDeps, AppEnv } from './context.js';
import { apiRoute, z } from './openapi.js';
import { requireActor } from './session.js';

/*
 * The fixture import's routes (docs/architecture.md, "Fixture import"), admin only: the import
 * itself and the team finder of the team configuration. They parse and call matches/*; a failure of
 * the match service answers 502 with its code and the zero counts (SPEC 8 'Failed to sync matches').
 */

const issueSchema = z.object({
  code: z.string().openapi({ description: 'Message code (serverMessages.<code>)' }),
  message: z.string().openapi({ description: 'English text; details follow after ": "' }),
  matchId: z.number().int().nullable(),
});

const counts = {
  created: z.number().int().openapi({ description: 'Matches that became new events' }),
  updated: z.number().int().openapi({ description: 'Events whose kick-off, date, place or stadium the feed changed' }),
  skipped: z.number().int().openapi({ description: 'Matches unchanged since the last import, or whose event an admin deleted' }),
  errors: z.array(issueSchema).openapi({ description: 'Matches that could not be imported; the service failure on 502' }),
};

const syncAnswer = z
  .object({
    success: z.literal(true),
    message: z.string(),
    season: z.string().openapi({ example: '2025/26' }),
    teamId: z.number().int(),
    ...counts,
    vanished: z
      .array(z.object({ matchId: z.number().int(), eventId: z.string(), title: z.string(), date: z.string() }))
      .openapi({ description: "This season's imported matches the feed no longer lists (their events are kept)" }),
  })
  .openapi('MatchSyncResult');

const syncFailure = z
  .object({ success: z.literal(false), code: z.string(), message: z.string(), ...counts })
  .openapi('MatchSyncFailure');

const teamsAnswer = z
  .object({
    success: z.literal(true),
    teams: z.array(
      z.object({
        teamId: z.number().int(),
        teamName: z.string(),
        shortName: z.string().nullable(),
        teamIconUrl: z.string().nullable(),
      }),
    ),
  })
  .openapi('LeagueTeams');

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

/** Admins only, checked before the input: a member learns nothing about what the route expects. */
const adminOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireAdmin(requireActor(c));
  await next();
};

/** apiRoute with the admin check and its answers declared. */
function adminRoute<R extends ReturnType<typeof apiRoute>, A extends RouteConfig['responses']>(route: R, answers: A) {
  return createRoute({
    ...route,
    middleware: [...(route.middleware as MiddlewareHandler<AppEnv>[]), adminOnly],
    responses: { ...route.responses, ...answers },
  });
}

/** The 502 answer of a service failure: its code, the text with the detail, and the counts of nothing written. */
function serviceFailure(c: Context<AppEnv>, error: FeedError, withCounts: boolean) {
  const message = `${MESSAGES[error.code]}: ${error.detail}`;
  const extra = withCounts ? { created: 0, updated: 0, skipped: 0, errors: [{ code: error.code, message, matchId: null }] } : {};
  return c.json({ success: false as const, code: error.code, message, ...extra }, 502);
}

export function matchRoutes(app: Api, deps: AppDeps): void {
  const tag = 'Matches';
  const feed = () => new OpenLigaDb({ baseUrl: deps.config.footballDataUrl });

  app.openapi(
    adminRoute(
      apiRoute({
        method: 'post',
        path: '/api/events/sync-matches',
        tag,
        summary:
          "Imports the configured team's matches of the current season from the match service (FOOTBALL_DATA_URL) as events (admin; no body)",
      }),
      {
        200: { description: 'The counts', content: { 'application/json': { schema: syncAnswer } } },
        409: { description: 'No valid team configured (`matchTeamNotConfigured`)' },
        502: {
          description: 'The match service failed (unreachable, error, unreadable, unknown team): nothing was written',
          content: { 'application/json': { schema: syncFailure } },
        },
      },
    ),
    async (c) => {
      const actor = requireActor(c);
      let result: MatchImportResult;
      try {
        result = await importMatches(deps.store, actor, { feed: feed(), timeZone: deps.config.clubTimeZone });
      } catch (error) {
        if (error instanceof FeedError) return serviceFailure(c, error, true);
        throw error;
      }
      return c.json({ success: true as const, message: MESSAGES.matchesSynced, ...result }, 200);
    },
  );

  app.openapi(
    adminRoute(
      apiRoute({
        method: 'get',
        path: '/api/config/teams/{league}/{season}',
        tag,
        summary: 'The teams of a league and season at the match service, by name, for the team finder (admin; e.g. bl1/2025)',
        params: teamsParams,
      }),
      {
        200: { description: 'The teams', content: { 'application/json': { schema: teamsAnswer } } },
        502: { description: 'The match service failed' },
      },
    ),
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
        if (error instanceof FeedError) return serviceFailure(c, error, false);
        throw error;
      }
    },
  );
}
