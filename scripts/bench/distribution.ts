/** The count, median, 99th percentile and maximum of a set of times (ms, one decimal). */
export interface Distribution {
  count: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export function distribution(values: number[]): Distribution {
  if (values.length === 0) return { count: 0, p50Ms: null, p99Ms: null, maxMs: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
  return { count: values.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}
