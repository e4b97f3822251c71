/**
 * Code that runs inside the page. Kept as plain JavaScript text: functions handed to page.evaluate
 * from TypeScript would be serialised after tsx transformed them, and its helpers (__name) do not exist
 * in the page.
 */

import { GROUPED_COLLECTIONS } from '../../client/src/data/pushedGroup.js';
import type { Page } from '@playwright/test';

/**
 * Init script of every page: records when the submit button is clicked (epoch ms, kept in
 * sessionStorage should sign-in reload the page) and when the first event card (an <article>) is in
 * the DOM with a box, both as performance.now() (relative to this document's navigation start) and
 * epoch ms. Recorded at the DOM mutation, i.e. the frame in which the card is committed.
 */
export const MARKS_INIT_SCRIPT = `(() => {
  const state = (window.__bench = { clickAt: null, firstCardAt: null, firstCardRel: null });
  // Error pages (a failed navigation offline) have no storage.
  const storage = (() => { try { return window.sessionStorage; } catch { return null; } })();
  const stored = storage && storage.getItem('__benchClickAt');
  if (stored) state.clickAt = Number(stored);
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.type === 'submit' && location.pathname === '/login') {
      state.clickAt = performance.timeOrigin + performance.now();
      if (storage) storage.setItem('__benchClickAt', String(state.clickAt));
    }
  }, true);
  const check = () => {
    if (state.firstCardAt !== null) return true;
    const card = document.querySelector('article, [role="article"]');
    if (!card || card.getBoundingClientRect().height === 0) return false;
    state.firstCardRel = performance.now();
    state.firstCardAt = performance.timeOrigin + state.firstCardRel;
    return true;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})();`;

/**
 * Shared helpers: find where a collection's documents are (an RxDB-on-Dexie database's 'docs' store,
 * or the document store's table of that name) and read them.
 */
const IDB_HELPERS = `
  /** The pushed kinds that are documents of RxDB's group 'pushed' (client/src/data/pushedGroup.ts). */
  const GROUPED = ${JSON.stringify(GROUPED_COLLECTIONS)};
  /**
   * Every place a collection is kept: RxDB's 'docs' store (its own collection, or the group of small
   * pushed kinds, counted by kind), the document store's table, or both (split by owner).
   */
  const placesOf = async (collection) => {
    const names = (await indexedDB.databases()).map((d) => d.name || '');
    const grouped = GROUPED.includes(collection);
    const rx = names.find((name) => name.startsWith('rxdb-dexie-') && name.endsWith(grouped ? '--pushed' : '--' + collection));
    const docs = names.find((name) => name.startsWith('fankurve-docs-'));
    const places = [];
    if (rx) places.push({ name: rx, store: 'docs', rx: true, kind: grouped ? collection : undefined });
    if (docs && !grouped) places.push({ name: docs, store: collection, rx: false });
    return places;
  };
  const withDocs = (where, use) => new Promise((resolve) => {
    const open = indexedDB.open(where.name);
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      const done = (value) => { db.close(); resolve(value); };
      try {
        use(db.transaction(where.store, 'readonly').objectStore(where.store), done);
      } catch (error) {
        done(null);
      }
    };
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  /** Walks a store's records with a cursor and hands \`done\` the sum of \`weigh(record)\` (null on an error). */
  const sumOver = (store, weigh, done) => {
    let sum = 0;
    const cursor = store.openCursor();
    cursor.onerror = () => done(null);
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return done(sum);
      sum += weigh(c.value);
      c.continue();
    };
  };
  /** A document store table kept by event: one record per event, its rows by id (client/src/data/docStore.ts). */
  const byEvent = (store) => store.keyPath === 'event_id';
  const rowCounts = new Map();
  /**
   * The rows of a table kept by event. Reading them deserialises every row, so they are counted
   * again only when the table's pull checkpoint moved (each page and its seq commit together).
   */
  const countRowsByEvent = (place) => withDocs({ name: place.name, store: '_checkpoints' }, (checkpoints, done) => {
    const request = checkpoints.get(place.store);
    request.onerror = () => done(null);
    request.onsuccess = () => done(request.result ? request.result.seq : 0);
  }).then((seq) => {
    const key = place.name + '/' + place.store;
    const known = rowCounts.get(key);
    if (known && known.seq === seq) return known.count;
    return withDocs(place, (store, done) => sumOver(store, (record) => Object.keys(record.rows).length, done)).then((count) => {
      if (count !== null) rowCounts.set(key, { seq, count });
      return count;
    });
  });
  const syncingShown = () => {
    const indicator = document.querySelector('.sync-indicator') || document.querySelector('[role="status"]');
    if (!indicator) return false;
    return indicator.className.includes('sync-syncing') || /Synchronisiere|Syncing/.test(indicator.textContent || '');
  };
`;

/**
 * Fully synced = every collection's places on the device hold at least the number of documents a
 * full pull of this user returns (RxDB keeps tombstones, the document store does not: `expected`
 * counts what each keeps), and the sync indicator does not say it is syncing. Polls every 50 ms inside the page; resolves with the epoch ms it first held, or null.
 */
export const WAIT_FULLY_SYNCED = `async ({ expected, timeoutMs }) => {
  ${IDB_HELPERS}
  const deadline = performance.now() + timeoutMs;
  const reachedAt = {};
  let counts = {};
  for (;;) {
    counts = {};
    for (const collection of Object.keys(expected)) {
      const places = await placesOf(collection);
      const split = places.length > 1;
      let count = null;
      for (const place of places) {
        // A split collection's RxDB part keeps tombstones, its store part does not: count live documents there.
        const keptByEvent = !place.rx && (await withDocs(place, (store, done) => done(byEvent(store))));
        const n = keptByEvent ? await countRowsByEvent(place) : await withDocs(place, (store, done) => {
          if (!(split && place.rx) && !place.kind) { const r = store.count(); r.onsuccess = () => done(r.result); r.onerror = () => done(null); return; }
          sumOver(store, (doc) => {
            const deleted = doc._deleted === true || doc._deleted === 1 || doc._deleted === '1';
            // A kind of the group counts its documents with their tombstones, like a collection of its own.
            return (place.kind ? doc.kind === place.kind : !deleted) ? 1 : 0;
          }, done);
        });
        if (n !== null) count = (count ?? 0) + n;
      }
      counts[collection] = count;
      if ((counts[collection] ?? -1) >= expected[collection] && !(collection in reachedAt)) {
        reachedAt[collection] = performance.timeOrigin + performance.now();
      }
    }
    const complete = Object.keys(expected).every((collection) => collection in reachedAt);
    if (complete && !syncingShown()) return { at: performance.timeOrigin + performance.now(), counts, reachedAt };
    if (performance.now() > deadline) return { at: null, counts, reachedAt, syncing: syncingShown() };
    await sleep(50);
  }
}`;

/**
 * Waits until this device holds the given member's live 'going' rows for all the given events, in
 * RxDB (only documents written since \`sinceEpoch\`, through the _meta.lwt index) or in the document
 * store (the events' records), so a poll stays cheap with 20,000 attendees on the device.
 */
export const WAIT_MEMBER_ROWS = `async ({ userId, eventIds, sinceEpoch, timeoutMs }) => {
  ${IDB_HELPERS}
  const wanted = new Set(eventIds);
  const deadline = performance.now() + timeoutMs;
  const isGoing = (doc) =>
    !(doc._deleted === true || doc._deleted === 1 || doc._deleted === '1') && doc.user_id === userId && doc.status === 'going';
  // RxDB's part (the device's own rows, by _meta.lwt) and the document store's (the other members'
  // rows, by their event): on another member's device the answers land in the second.
  const scanPlace = (place, found) => withDocs(place, (store, done) => {
    if (!place.rx && byEvent(store)) {
      let left = wanted.size;
      for (const eventId of wanted) {
        const request = store.get(eventId);
        request.onsuccess = () => {
          if (request.result && Object.values(request.result.rows).some(isGoing)) found.add(eventId);
          if (--left === 0) done(found.size);
        };
        request.onerror = () => { if (--left === 0) done(found.size); };
      }
      return;
    }
    if (!place.rx && store.indexNames.contains('event_id')) {
      const index = store.index('event_id');
      let left = wanted.size;
      for (const eventId of wanted) {
        const request = index.getAll(eventId);
        request.onsuccess = () => {
          if (request.result.some(isGoing)) found.add(eventId);
          if (--left === 0) done(found.size);
        };
        request.onerror = () => { if (--left === 0) done(found.size); };
      }
      return;
    }
    const source = place.rx && store.indexNames.contains('_meta.lwt') ? store.index('_meta.lwt') : store;
    const range = source === store ? null : IDBKeyRange.lowerBound(sinceEpoch);
    const cursor = source.openCursor(range);
    cursor.onerror = () => done(found.size);
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return done(found.size);
      if (isGoing(c.value) && wanted.has(c.value.event_id)) found.add(c.value.event_id);
      c.continue();
    };
  });
  for (;;) {
    const found = new Set();
    for (const place of await placesOf('attendees')) await scanPlace(place, found);
    if (found.size >= wanted.size) return { at: performance.timeOrigin + performance.now(), found: found.size };
    if (performance.now() > deadline) return { at: null, found: found.size };
    await sleep(50);
  }
}`;

/** Navigation timing of this document and when its first card appeared (ms since navigation start). */
export const START_TIMING = `() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    firstCard: window.__bench.firstCardRel,
    responseEnd: nav ? nav.responseEnd : null,
    domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
    firstContentfulPaint: fcp ? fcp.startTime : null,
  };
}`;

/** Client-side navigation of the SPA (react-router's BrowserRouter follows popstate), no page load. */
export const SPA_NAVIGATE = `(path) => {
  const idx = ((history.state && history.state.idx) || 0) + 1;
  history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', path);
  dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
}`;

/** The sync indicator's text ("Offline · 50 Änderungen warten"). */
export const SYNC_TEXT = `() => (document.querySelector('.sync-indicator') || document.querySelector('[role="status"]'))?.textContent ?? null`;

/**
 * Waits until `expression` is truthy in the page, evaluated every 50 ms. page.waitForFunction would
 * run it through eval inside the page, which the app's Content-Security-Policy (no 'unsafe-eval')
 * refuses; page.evaluate goes through the DevTools protocol, which the policy does not govern.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await page.evaluate(expression)) return;
    } catch (error) {
      // A navigation replaced the document: ask the new one.
      if (!/context was destroyed|navigation/i.test(String(error))) throw error;
    }
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${expression}`);
    await page.waitForTimeout(50);
  }
}

export const evaluateSource = (source: string, arg?: unknown) => `(${source})(${arg === undefined ? '' : JSON.stringify(arg)})`;
