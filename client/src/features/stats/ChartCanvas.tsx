import type { ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'react';

interface Props {
  /** Built anew only when the figures or the language change (memoised by the caller). */
  config: ChartConfiguration;
  /** What the chart shows, for screen readers (the numbers are in the table beside it). */
  label: string;
  /** The chart's height in CSS pixels; its width is the page's. */
  height: number;
  testId?: string;
}

/**
 * One chart: a canvas that is one image for screen readers, named by `label`; the chart follows the
 * width it gets (Chart.js's resize observer). The height is set through React's style object (CSSOM).
 */
export function ChartCanvas({ config, label, height, testId }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let cancelled = false;
    let remove: (() => void) | undefined;
    // Chart.js (a third of the page's code) loads after the figures and tables have painted.
    void import('./chartEngine.js').then(({ drawChart }) => {
      if (!cancelled && canvas.current) remove = drawChart(canvas.current, config);
    });
    return () => {
      cancelled = true;
      remove?.();
    };
  }, [config]);
  return (
    <div className="stats-chart" style={{ height }} data-testid={testId}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
