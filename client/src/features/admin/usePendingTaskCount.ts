import { POLL_INTERVAL_MS } from '@fankurve/shared/constants';
import { useEffect, useState } from 'react';
import { fetchTaskCount, onTasksChanged } from '../../api/admin.js';

/**
 * The pending-task count of the nav bar's badge (admins only; null otherwise or before the first
 * answer): polled every 30 s, and at once when the server's change stream announces a
 * change or a task is done on this device. The data layer is imported lazily, so the shell does
 * not pull RxDB in.
 */
export function usePendingTaskCount(enabled: boolean): number | null {
  const [count, setCount] = useState<number | null>(null);

  useEffect(() => {
    if (!enabled) {
      setCount(null);
      return;
    }
    let stopped = false;
    let inFlight = false;
    let again = false;
    const load = async () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      try {
        const answer = await fetchTaskCount();
        if (!stopped) setCount(answer.totalCount);
      } catch {
        // Offline or refused: keep the last count (load failures are only logged).
      } finally {
        inFlight = false;
        if (again && !stopped) {
          again = false;
          void load();
        }
      }
    };
    void load();
    const timer = setInterval(() => void load(), POLL_INTERVAL_MS);
    const stopLocal = onTasksChanged(() => void load());
    let stopStream: (() => void) | null = null;
    void import('../../data/index.js').then((data) => {
      if (stopped) return;
      stopStream = data.onServerChange(() => void load());
    });
    return () => {
      stopped = true;
      clearInterval(timer);
      stopLocal();
      stopStream?.();
    };
  }, [enabled]);

  return count;
}
