import {
  checkStatsSeason,
  seasonDateRange,
  seasonStats as computeSeasonStats,
  type SeasonStats,
} from '@fankurve/shared/rules/stats';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toBool } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { badInput } from '../errors.js';

/*
 * A season in numbers (docs/product.md, Statistics; docs/architecture.md, Statistics): the rows are
 * narrowed to the season in SQL, and the shared rule (rules/stats.ts) counts, as the device does from
 * its own copy for the current season.
 */

/**
 * The statistic of a season for any signed-in member (every active member reads every member's
 * figures, as on the loyalty ranking). `season` is the query's year the season starts in, or none for
 * the season of `today` (the club's day); anything else is 400 'statsSeasonInvalid'.
 */
export async function seasonStats(
  db: Kysely<Database>,
  _actor: Actor,
  season: string | undefined,
  today: string,
): Promise<SeasonStats> {
  const checked = checkStatsSeason(season, today);
  if (!checked.ok) throw badInput(checked.code);
  const { from, until } = seasonDateRange(checked.value);

  const [events, attendees, members, onBoard] = await Promise.all([
    db
      .selectFrom('events')
      .select(['id', 'title', 'date', 'deleted', 'archived'])
      .where('deleted', '=', 0)
      .where('archived', '=', 0)
      .where('date', '>=', from)
      .where('date', '<', until)
      .execute(),
    db
      .selectFrom('attendees as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .select(['a.id', 'a.event_id', 'a.user_id', 'a.guest_name', 'a.status', 'a.has_ticket', 'a.bought', 'a.deleted'])
      .where('a.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('e.archived', '=', 0)
      .where('e.date', '>=', from)
      .where('e.date', '<', until)
      .execute(),
    db.selectFrom('users').select(['id', 'username']).where('deleted', '=', 0).where('status', '=', 'active').execute(),
    // The rows ticked on board of a club bus (docs/product.md, Bus): "mitgefahren".
    db
      .selectFrom('boardings as b')
      .innerJoin('events as e', 'e.id', 'b.event_id')
      .select('b.attendee_id')
      .where('b.on_board', '=', 1)
      .where('b.deleted', '=', 0)
      .where('e.date', '>=', from)
      .where('e.date', '<', until)
      .execute(),
  ]);

  return computeSeasonStats({
    season: checked.value,
    today,
    events: events.map((event) => ({ ...event, deleted: toBool(event.deleted), archived: toBool(event.archived) })),
    attendees: attendees.map((row) => ({
      ...row,
      has_ticket: toBool(row.has_ticket),
      bought: toBool(row.bought),
      deleted: toBool(row.deleted),
    })),
    members,
    onBoard: new Set(onBoard.map((row) => row.attendee_id)),
  });
}
