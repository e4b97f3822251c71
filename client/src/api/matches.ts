import type { LeagueTeam, LeagueTeamsAnswer, MatchSyncAnswer } from '@fankurve/shared';
import { api } from './client.js';

/*
 * The fixture import's REST calls (admin, online only; docs/architecture.md, "Fixture import"). The
 * events an import creates or changes reach every device through sync by themselves.
 */

/** Imports the configured team's matches of the current season. A failure of the service throws (502): nothing was written. */
export const syncMatches = () => api<MatchSyncAnswer>('/api/events/sync-matches', { method: 'POST' });

/** A team of a league at the match service (OpenLigaDB's teamId is what the team configuration stores). */
export type { LeagueTeam };

/** The teams of a league (shortcut like bl1) and season (the year it starts), by name. */
export const fetchLeagueTeams = (league: string, season: number, signal?: AbortSignal) =>
  api<LeagueTeamsAnswer>(`/api/config/teams/${encodeURIComponent(league)}/${season}`, { signal });
