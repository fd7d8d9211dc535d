import type { WorkloadResult } from '../workload.js';
import type { ScaleFigure } from './whole-log-figures.js';

/** The p95 on the large database may be at most this many times the small one's (contract §20). */
const p95RatioTarget = 1.25;

const fixed = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));

function workloadRow(small: WorkloadResult, large: WorkloadResult | undefined): string {
  if (!large) return `| ${small.name} | ${fixed(small.p95)} | – | – | – | – | – | not run on the large database |`;
  const errors = large.unexpected && Object.keys(large.unexpected).length ? JSON.stringify(large.unexpected) : '0';
  if (small.p95 === undefined || large.p95 === undefined) {
    const figure = (r: WorkloadResult) => `${fixed(r.perSecond, 1)}${r.unit ? ` ${r.unit}` : '/s'}`;
    return `| ${large.name} | ${figure(small)} | ${figure(large)} | – | – | – | ${errors} | ${large.note ?? small.note ?? 'no p95'} |`;
  }
  const ratio = large.p95 / small.p95;
  return `| ${large.name} | ${fixed(small.p95)} | ${fixed(large.p95)} | ${ratio.toFixed(2)} × | ${fixed(small.perSecond, 0)} | ${fixed(large.perSecond, 0)} | ${errors} | ≤ ${p95RatioTarget} ×: ${ratio <= p95RatioTarget ? 'pass' : 'MISS'} |`;
}

function figureRow(figure: ScaleFigure): string {
  const amount = Number.isNaN(figure.value) ? '–' : figure.value >= 100 ? Math.round(figure.value).toLocaleString('en') : figure.value.toFixed(figure.unit === '×' ? 2 : 1);
  const value = `${amount} ${figure.unit}`;
  const { target } = figure;
  const met = target && (target.higherIsBetter ? figure.value >= target.bound : figure.value <= target.bound);
  const verdict = target ? `${target.text}: ${met ? 'pass' : 'MISS'}` : '–';
  return `| ${figure.name} | ${value} | ${verdict} | ${figure.note ?? ''} |`;
}

/** The scale run's report: every workload's p95 on the large database beside the small one's, then the log's own figures. */
export function scaleReport(small: WorkloadResult[], large: WorkloadResult[], figures: ScaleFigure[], header: string[]): string[] {
  return [
    ...header,
    '',
    '| Workload | small p95 ms | large p95 ms | p95 ratio | small per s | large per s | large non-2xx | target |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...small.map((result, i) => workloadRow(result, large.find((l) => l.name === result.name) ?? large[i])),
    '',
    '| Figure | measured | target | note |',
    '|---|---:|---|---|',
    ...figures.map(figureRow),
  ];
}
