import { clubWallClock } from '@fankurve/shared/rules/attendance';
import { useEffect, useState } from 'react';

/**
 * The club's wall-clock time (`YYYY-MM-DD HH:MM:SS` in its time zone), read again every
 * `intervalMs` while the screen shows: answer deadlines pass and their time left counts down
 * without a reload (docs/product.md, Answer deadlines and reminders).
 */
export function useClubNow(timeZone: string, intervalMs = 30_000): string {
  const [now, setNow] = useState(() => clubWallClock(timeZone));
  useEffect(() => {
    setNow(clubWallClock(timeZone));
    const timer = setInterval(() => setNow(clubWallClock(timeZone)), intervalMs);
    return () => clearInterval(timer);
  }, [timeZone, intervalMs]);
  return now;
}
