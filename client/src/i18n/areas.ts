/*
 * Texts of an area in files of their own, `de/<area>.json` and `en/<area>.json`, and a collection's in
 * its own folder, `collections/<name>/de.json` and `en.json` (docs/architecture.md, "Adding a synced
 * collection"): found in their folders, each area's texts under its name, beside the texts of de.json
 * and en.json. A collection's `serverMessages` join everyone's (`serverMessages.<code>`), its
 * `refusalActions` (what a refused change of its own tried, by the camel-case action: `ride.offer` →
 * `rideOffer`) join `refusals.actions`. German is bundled; English loads with en.json.
 */

import type { NoticeAction } from '@fankurve/shared/registry';
import type account from './de/account.json';
import type audit from './de/audit.json';
import type contingents from './de/contingents.json';
import type deadlines from './de/deadlines.json';
import type erasure from './de/erasure.json';
import type invites from './de/invites.json';
import type ledger from './de/ledger.json';
import type legal from './de/legal.json';
import type loyalty from './de/loyalty.json';
import type members from './de/members.json';
import type polls from './de/polls.json';
import type stats from './de/stats.json';
import type storage from './de/storage.json';

type Texts = Record<string, unknown>;

/** `guest.add` → `guestAdd`: a refusal action as its text's key names it. */
export type CamelCase<Action extends string> = Action extends `${infer Head}.${infer Tail}`
  ? `${Head}${Capitalize<Tail>}`
  : Action;

/**
 * The keys of `refusals.actions`: every declared refusal action (NOTICE_ACTIONS) and `other`, in
 * de.json and en.json or in a collection's own `refusalActions` (client/test/refusal-actions.test.ts).
 */
export type RefusalActionKey = CamelCase<NoticeAction> | 'other';

/** The area of a file: `./de/ledger.json` → ledger, `../collections/announcements/de.json` → announcements. */
const areaOf = (path: string) => /\/collections\/([^/]+)\/\w+\.json$/.exec(path)?.[1] ?? path.replace(/^.*\/|\.json$/g, '');

/**
 * Each area's texts under its name; the server messages of all of them in `serverMessages`, their
 * refusal actions in `refusalActions`.
 */
function byArea(modules: Record<string, Texts>): Texts {
  const areas: Texts = {};
  const serverMessages: Texts = {};
  const refusalActions: Texts = {};
  for (const [path, { serverMessages: messages, refusalActions: actions, ...texts }] of Object.entries(modules)) {
    areas[areaOf(path)] = texts;
    Object.assign(serverMessages, messages);
    Object.assign(refusalActions, actions);
  }
  return { ...areas, serverMessages, refusalActions };
}

/**
 * The texts of de.json or en.json with the areas': the areas' server messages join the file's, their
 * refusal actions the file's `refusals.actions`.
 */
export function withAreas(texts: Texts, areas: Texts): Texts {
  const { serverMessages, refusalActions, ...own } = areas;
  const refusals = (texts.refusals ?? {}) as Texts;
  return {
    ...texts,
    ...own,
    serverMessages: { ...(texts.serverMessages as Texts), ...(serverMessages as Texts) },
    refusals: { ...refusals, actions: { ...(refusals.actions as Texts), ...(refusalActions as Texts) } },
  };
}

export const GERMAN_AREAS: Texts = byArea({
  ...import.meta.glob<Texts>('./de/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Texts>('../collections/*/de.json', { eager: true, import: 'default' }),
});

export async function englishAreas(): Promise<Texts> {
  const loaders = {
    ...import.meta.glob<Texts>('./en/*.json', { import: 'default' }),
    ...import.meta.glob<Texts>('../collections/*/en.json', { import: 'default' }),
  };
  const loaded = await Promise.all(Object.entries(loaders).map(async ([path, load]) => [path, await load()] as const));
  return byArea(Object.fromEntries(loaded));
}

/**
 * The areas' German texts as the type of `t()`'s keys: one line an area; a collection in its own
 * folder adds its line from its texts.ts (module augmentation).
 */
export interface AreaTexts {
  account: typeof account;
  audit: typeof audit;
  contingents: typeof contingents;
  deadlines: typeof deadlines;
  erasure: typeof erasure;
  invites: typeof invites;
  ledger: typeof ledger;
  legal: typeof legal;
  loyalty: typeof loyalty;
  members: typeof members;
  polls: typeof polls;
  stats: typeof stats;
  storage: typeof storage;
}
