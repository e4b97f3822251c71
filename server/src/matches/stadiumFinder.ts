import { stadiumInput } from '@fankurve/shared';
import type { WriteContext } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import { createStadium } from '../domain/events/stadiums.js';
import type { MappedMatch } from './mapping.js';

/** Stadium names compared as people read them: case, width and spacing do not count. */
const stadiumKey = (name: string) => name.normalize('NFKC').toLocaleLowerCase('de').replace(/\s+/g, ' ').trim();

/**
 * Finds a match's stadium by name among the stadiums, or creates it (for the home team) through the
 * domain's createStadium, in the import's transaction (docs/architecture.md, "Fixture import").
 */
export class StadiumFinder {
  private byName: Map<string, string> | null = null;

  constructor(
    private readonly w: WriteContext,
    private readonly actor: Actor,
  ) {}

  async idFor(match: MappedMatch): Promise<string | null> {
    if (!match.stadiumName) return null;
    if (!this.byName) {
      const rows = await this.w.db.selectFrom('stadiums').select(['id', 'stadium_name']).orderBy('created_at').execute();
      this.byName = new Map();
      for (const row of rows)
        if (!this.byName.has(stadiumKey(row.stadium_name))) this.byName.set(stadiumKey(row.stadium_name), row.id);
    }
    const key = stadiumKey(match.stadiumName);
    const known = this.byName.get(key);
    if (known) return known;
    const input = stadiumInput.safeParse({
      team_name: match.homeTeam,
      stadium_name: match.stadiumName,
      city: match.city ?? match.location,
    });
    if (!input.success) return null;
    const stadium = await createStadium(this.w, this.actor, input.data);
    this.byName.set(key, stadium.id);
    return stadium.id;
  }
}
