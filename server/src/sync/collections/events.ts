import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../domain/actor.js';
import { eventsSync, type EventDoc } from '@fankurve/shared';
import { selectEventsWithCounts, ticketPricesByStadium, toEventWithCounts } from '../../domain/events/events.js';
import { defineServerCollection, sameForEveryActor, type MasterDocument } from '../collection.js';

/**
 * Every event, with stadium name/address, its ticket price options and its going and maybe counts
 * (a device does not keep every event's attendee rows: docs/architecture.md, What a device keeps;
 * writing attendee rows gives their events a new seq). Pull only: edits go through REST. An
 * archived event is a live document with `archived: true` (its tickets need its title).
 */
async function pullEvents(
  db: Kysely<Database>,
  _actor: Actor,
  afterSeq: number,
  limit: number,
): Promise<MasterDocument<EventDoc>[]> {
  const rows = await selectEventsWithCounts(db).where('e.seq', '>', afterSeq).orderBy('e.seq').limit(limit).execute();
  const views = rows.map(toEventWithCounts);
  const prices = await ticketPricesByStadium(
    db,
    views.filter((view) => !view.deleted).map((view) => view.stadium_id),
  );
  return views.map((view): MasterDocument<EventDoc> => ({
    id: view.id,
    title: view.title,
    description: view.description,
    date: view.date,
    location: view.location,
    stadium_id: view.stadium_id,
    stadium_name: view.stadium_name,
    stadium_address: view.stadium_address,
    ticket_price_cents: view.ticket_price_cents,
    ticket_buyer: view.ticket_buyer,
    season: view.season,
    is_updated: view.is_updated,
    created_by: view.created_by,
    creator_name: view.creator_name,
    image_filename: view.image_filename,
    guest_block_capacity: view.guest_block_capacity,
    ticket_prices: view.stadium_id ? (prices.get(view.stadium_id) ?? []) : [],
    created_at: view.created_at,
    archived: view.archived,
    going_count: view.going_count,
    maybe_count: view.maybe_count,
    answer_deadline: view.answer_deadline,
    seq: view.seq,
    _deleted: view.deleted,
  }));
}

export const eventsCollection = defineServerCollection<EventDoc>({
  declaration: eventsSync,
  pull: pullEvents,
  shared: sameForEveryActor(pullEvents),
});
