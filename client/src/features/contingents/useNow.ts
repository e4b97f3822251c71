import { useEffect, useState } from 'react';

/** The device's clock, read again every `intervalMs` while the component shows (a countdown). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** What is left of a window as `H:MM:SS` (hours counting on past a day): `23:59:05`, `0:04:10`. */
export function remainingText(untilMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((untilMs - nowMs) / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}
