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
import { cssColour } from './colours.js';

/*
 * Chart.js, registered with only the parts the statistics draw (tree-shaken), in a chunk of its own
 * that `ChartCanvas` loads once the page has painted its figures and tables. It draws on a canvas
 * and sets the canvas's size through the CSSOM, which the Content-Security-Policy allows
 * (docs/architecture.md, Content-Security-Policy): no inline style in markup, no injected
 * stylesheet, no eval.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

/** The page's font and text colour for every chart. */
function applyPageLook(): void {
  const body = getComputedStyle(document.body);
  Chart.defaults.font.family = body.fontFamily;
  Chart.defaults.font.size = 12;
  Chart.defaults.color = cssColour('--text', '#14213d');
  Chart.defaults.borderColor = cssColour('--border', '#d8dee8');
}

/** Draws the chart on the canvas; the returned function removes it. */
export function drawChart(canvas: HTMLCanvasElement, config: ChartConfiguration): () => void {
  applyPageLook();
  const chart = new Chart(canvas, config);
  return () => chart.destroy();
}
