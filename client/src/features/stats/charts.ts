import type { EventSeasonStats, MemberSeasonStats } from '@fankurve/shared/rules/stats';
import type { ChartConfiguration, Scale, TooltipItem } from 'chart.js';
import { cssColour } from './colours.js';

/*
 * The statistics' three charts as Chart.js configurations (docs/product.md, Statistics). Readable at
 * 360 px: the attendance's dates turn and thin out by themselves, the members' chart lies on its side
 * with names shortened on a narrow screen (the tooltip and the table have them in full).
 */

/** At most this many members in the members' chart (the table lists everyone). */
export const MEMBERS_IN_CHART = 30;
/** Room per member in the members' chart (two bars and a gap). */
const MEMBER_ROW_PX = 34;

const palette = () => ({
  theme: cssColour('--theme', '#00397d'),
  amber: cssColour('--amber', '#b45309'),
  green: cssColour('--green', '#15803d'),
  muted: cssColour('--muted', '#5b6476'),
});

/** A name cut to `max` characters (whole code points) with an ellipsis. */
function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

const wholeNumbers = { beginAtZero: true, ticks: { precision: 0 } } as const;

/** Going and maybe per event over the season, as two lines; the tooltip names the event. */
export function attendanceChart(
  events: readonly EventSeasonStats[],
  labels: { going: string; maybe: string; day: (date: string) => string },
  locale: string,
): ChartConfiguration<'line'> {
  const colours = palette();
  return {
    type: 'line',
    data: {
      labels: events.map((event) => labels.day(event.date)),
      datasets: [
        {
          label: labels.going,
          data: events.map((event) => event.going),
          borderColor: colours.theme,
          backgroundColor: colours.theme,
          pointRadius: 3,
          tension: 0,
        },
        {
          label: labels.maybe,
          data: events.map((event) => event.maybe),
          borderColor: colours.amber,
          backgroundColor: colours.amber,
          borderDash: [6, 4],
          pointRadius: 3,
          tension: 0,
        },
      ],
    },
    options: {
      locale,
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { ticks: { autoSkip: true, maxRotation: 60, minRotation: 0 } },
        y: wholeNumbers,
      },
      plugins: {
        // Round keys, not line samples: the dashed line's sample reads as a smear at this size.
        legend: { position: 'bottom', labels: { usePointStyle: true } },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => {
              const event = events[items[0]?.dataIndex ?? -1];
              return event ? [event.title, labels.day(event.date)] : '';
            },
          },
        },
      },
    },
  };
}

/** The members the chart shows: those with a home or away match, most first, at most MEMBERS_IN_CHART. */
export const membersInChart = (members: readonly MemberSeasonStats[]): MemberSeasonStats[] =>
  members.filter((member) => member.away + member.home > 0).slice(0, MEMBERS_IN_CHART);

/** The members' chart's height for `count` members (axes and legend included). */
export const membersChartHeight = (count: number): number => Math.max(160, count * MEMBER_ROW_PX + 80);

/** Away and home matches per member as horizontal bars (names down the side), in the statistic's order. */
export function membersChart(
  members: readonly MemberSeasonStats[],
  labels: { away: string; home: string },
  locale: string,
): ChartConfiguration<'bar'> {
  const colours = palette();
  return {
    type: 'bar',
    data: {
      labels: members.map((member) => member.username),
      datasets: [
        { label: labels.away, data: members.map((member) => member.away), backgroundColor: colours.theme },
        { label: labels.home, data: members.map((member) => member.home), backgroundColor: colours.green },
      ],
    },
    options: {
      locale,
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', axis: 'y', intersect: false },
      scales: {
        x: { ...wholeNumbers, position: 'top' },
        y: {
          ticks: {
            autoSkip: false,
            // A narrow screen keeps the bars room: long names are cut here, never in the tooltip or the table.
            callback(this: Scale, value: string | number) {
              return shorten(this.getLabelForValue(Number(value)), this.chart.width < 480 ? 12 : 24);
            },
          },
        },
      },
      plugins: { legend: { position: 'bottom' } },
    },
  };
}

/** The member's home, away and other beside the average member's. */
export function ownChart(
  own: Pick<MemberSeasonStats, 'home' | 'away' | 'other'>,
  average: { home: number; away: number; other: number },
  labels: { home: string; away: string; other: string; you: string; average: string },
  locale: string,
): ChartConfiguration<'bar'> {
  const colours = palette();
  const kinds = ['home', 'away', 'other'] as const;
  return {
    type: 'bar',
    data: {
      labels: kinds.map((kind) => labels[kind]),
      datasets: [
        { label: labels.you, data: kinds.map((kind) => own[kind]), backgroundColor: colours.theme },
        {
          label: labels.average,
          data: kinds.map((kind) => Math.round(average[kind] * 10) / 10),
          backgroundColor: colours.muted,
        },
      ],
    },
    options: {
      locale,
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: { y: { beginAtZero: true } },
      plugins: { legend: { position: 'bottom' } },
    },
  };
}
