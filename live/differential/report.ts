/**
 * @module The differential report as text (one line group per difference, then the notes and the
 * summary line) or as JSON (the same content).
 */
import type { DifferentialReport } from './run';
import { shorten } from './run';

function show(value: unknown): string {
  return shorten(typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'undefined'), 300);
}

function summaryLine(report: DifferentialReport): string {
  return `${report.calls} calls, ${report.differences.length} differences`;
}

export function formatText(report: DifferentialReport): string {
  const lines: string[] = [`Differential check: live Odoo ${report.liveVersion} vs sandbox (${report.transports.join(', ')})`, ''];
  for (const d of report.differences) {
    lines.push(`[${d.kind}] ${d.call}`);
    lines.push(`  over ${d.transports.join(', ')}${d.path ? ` at ${d.path}` : ''}`);
    lines.push(`  live:    ${show(d.live)}`);
    lines.push(`  sandbox: ${show(d.sandbox)}`);
  }
  if (report.notes.length) {
    lines.push('', 'Not compared (structural notes):');
    for (const note of report.notes) lines.push(`  - ${note}`);
  }
  lines.push('', summaryLine(report));
  return lines.join('\n');
}

export function formatJson(report: DifferentialReport): string {
  return JSON.stringify({ ...report, summary: summaryLine(report) }, null, 2);
}
