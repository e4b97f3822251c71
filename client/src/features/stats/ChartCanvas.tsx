import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { useEffect, useRef } from 'react';

/*
 * Chart.js, registered with only the parts the statistics draw (tree-shaken: it loads with the stats
 * page's chunk and nowhere else). It draws on a canvas and sets the canvas's size through the CSSOM,
 * which the Content-Security-Policy allows (docs/architecture.md, Content-Security-Policy): no
 * inline style in markup, no injected stylesheet, no eval.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

/** A colour of the page's palette (styles.css), read when a chart is drawn: the club's theme follows. */
export function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The page's font and text colour for every chart. */
function applyPageLook(): void {
  const body = getComputedStyle(document.body);
  Chart.defaults.font.family = body.fontFamily;
  Chart.defaults.font.size = 12;
  Chart.defaults.color = cssColour('--text', '#14213d');
  Chart.defaults.borderColor = cssColour('--border', '#d8dee8');
}

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
    if (!canvas.current) return;
    applyPageLook();
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);
  return (
    <div className="stats-chart" style={{ height }} data-testid={testId}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
