import type { SeasonStats } from '@fankurve/shared/rules/stats';
import { useEffect, useState } from 'react';
import { fetchSeasonStats } from '../../api/stats.js';
import { useDeviceSeasonStats } from '../../data/index.js';
import { errorText } from '../../i18n/index.js';
import { useOnline } from '../../ui/NeedsConnection.js';

export type SeasonStatsState =
  | { kind: 'loading' }
  /** `at`: when an older season's answer was loaded (ISO); none for the device's own count. */
  | { kind: 'ready'; stats: SeasonStats; source: 'device' | 'server'; at?: string }
  /** An older season while offline, not loaded before in this app session. */
  | { kind: 'needsConnection' }
  | { kind: 'failed'; message: string };

/**
 * The server's answers for older seasons in this app session, so a season looked at once still shows
 * offline (kept in memory only: a reload or sign-out forgets it), by user and season.
 */
const loaded = new Map<string, { stats: SeasonStats; at: string }>();

/**
 * The statistic of the season starting in July of `season` (docs/product.md, Statistics): the
 * current season counted on the device from its own rows (which it keeps in full, offline too);
 * an older one from GET /api/stats online, else what was loaded before, else 'needsConnection'.
 */
export function useSeasonStats(userId: string, season: number, currentSeason: number, today: string): SeasonStatsState {
  const current = season === currentSeason;
  const device = useDeviceSeasonStats(currentSeason, today);
  const online = useOnline();
  const key = `${userId}\u0000${season}`;
  const [server, setServer] = useState<{ key: string; stats: SeasonStats; at: string } | null>(null);
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);

  useEffect(() => {
    if (current || !online) return;
    const controller = new AbortController();
    fetchSeasonStats(season, controller.signal).then(
      ({ members, events }) => {
        const answer = { stats: { members, events }, at: new Date().toISOString() };
        loaded.set(key, answer);
        setServer({ key, ...answer });
        setFailure(null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure({ key, message: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [current, online, season, key]);

  if (current) return device ? { kind: 'ready', stats: device, source: 'device' } : { kind: 'loading' };
  const answer = server?.key === key ? server : loaded.get(key);
  if (answer) return { kind: 'ready', stats: answer.stats, source: 'server', at: answer.at };
  if (!online) return { kind: 'needsConnection' };
  if (failure?.key === key) return { kind: 'failed', message: failure.message };
  return { kind: 'loading' };
}
