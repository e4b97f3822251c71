import { requireAdmin, type Actor } from '../domain/actor.js';
import type { FeedTeam, OpenLigaDb } from './openLigaDb.js';

/** The teams of a league and season for the team finder (admin), by name (docs/architecture.md, "Fixture import"). */
export async function findLeagueTeams(actor: Actor, feed: OpenLigaDb, league: string, season: number): Promise<FeedTeam[]> {
  requireAdmin(actor);
  const teams = await feed.teamsOf(league, season);
  const unique = new Map(teams.map((team) => [team.teamId, team]));
  return [...unique.values()].sort((a, b) => a.teamName.localeCompare(b.teamName, 'de'));
}
