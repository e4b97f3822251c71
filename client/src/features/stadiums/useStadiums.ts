import { useCallback, useEffect, useState } from 'react';
import { fetchStadiumsWithPrices, type Stadium } from '../../api/stadiums.js';

export type StadiumWithPrices = Required<Stadium>;

/**
 * The stadiums with their ticket prices from the server (admin work, online). `reload` fetches again
 * after a change and keeps the current list on screen meanwhile.
 */
export function useStadiums(): {
  stadiums: StadiumWithPrices[] | null;
  error: unknown;
  reload: () => void;
} {
  const [stadiums, setStadiums] = useState<StadiumWithPrices[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchStadiumsWithPrices(controller.signal)
      .then((list) => {
        setStadiums(
          [...list].sort((a, b) => a.team_name.localeCompare(b.team_name) || a.stadium_name.localeCompare(b.stadium_name)),
        );
        setError(null);
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        // Load failures of lists are logged; the screen offers a retry.
        console.error('Stadiums not loaded', failure);
        setError(failure);
      });
    return () => controller.abort();
  }, [version]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { stadiums, error, reload };
}
