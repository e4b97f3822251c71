/*
 * Texts of an area in files of their own, `de/<area>.json` and `en/<area>.json` (docs/architecture.md,
 * "Adding a synced collection"): found in their folders, each file's texts under its name, beside the
 * texts of de.json and en.json. German is bundled; English loads with en.json.
 */

import type account from './de/account.json';
import type announcements from './de/announcements.json';
import type contingents from './de/contingents.json';
import type deadlines from './de/deadlines.json';
import type ledger from './de/ledger.json';
import type loyalty from './de/loyalty.json';
import type polls from './de/polls.json';
import type stats from './de/stats.json';
import type storage from './de/storage.json';

type Texts = Record<string, unknown>;

const byArea = (modules: Record<string, Texts>): Texts =>
  Object.fromEntries(Object.entries(modules).map(([path, texts]) => [path.replace(/^.*\/|\.json$/g, ''), texts]));

export const GERMAN_AREAS: Texts = byArea(import.meta.glob<Texts>('./de/*.json', { eager: true, import: 'default' }));

export async function englishAreas(): Promise<Texts> {
  const loaders = import.meta.glob<Texts>('./en/*.json', { import: 'default' });
  const loaded = await Promise.all(Object.entries(loaders).map(async ([path, load]) => [path, await load()] as const));
  return byArea(Object.fromEntries(loaded));
}

/** The areas' German texts as the type of `t()`'s keys: one line an area. */
export interface AreaTexts {
  account: typeof account;
  announcements: typeof announcements;
  contingents: typeof contingents;
  deadlines: typeof deadlines;
  ledger: typeof ledger;
  loyalty: typeof loyalty;
  polls: typeof polls;
  stats: typeof stats;
  storage: typeof storage;
}
