/**
 * @module The two forms of a drift report: a readable table (resource, kind, field, detail) for
 * people and logs, and JSON for scripts.
 */
import { qualifiedField, type DriftProblem } from './drift-problem';

const HEADINGS = ['resource', 'kind', 'field', 'detail'] as const;

/** The problems as an aligned text table, sorted by resource, kind and field; one line per problem. */
export function formatDriftTable(problems: readonly DriftProblem[]): string {
  const rows = sortProblems(problems).map((p) => [p.resource, p.kind, qualifiedField(p), `${p.detail} [used by: ${p.uses.join(', ')}]`]);
  const widths = HEADINGS.map((heading, i) => Math.max(heading.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(HEADINGS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export interface DriftReportJson {
  readonly drift: boolean;
  readonly problems: readonly DriftProblem[];
}

export function driftReportJson(problems: readonly DriftProblem[]): DriftReportJson {
  return { drift: problems.length > 0, problems: sortProblems(problems) };
}

function sortProblems(problems: readonly DriftProblem[]): DriftProblem[] {
  const key = (p: DriftProblem) => [p.resource, p.kind, qualifiedField(p)].join('\u0000');
  return [...problems].sort((a, b) => key(a).localeCompare(key(b)));
}

/** One line per problem for a gateway that refuses to start (DRIFT_CHECK=fail). */
export function driftFailureLines(problems: readonly DriftProblem[]): string[] {
  return [
    ...sortProblems(problems).map((p) => `catalogue drift: ${p.resource}: ${p.kind} ${qualifiedField(p)}: ${p.detail}`),
    `DRIFT_CHECK=fail: refusing to run with ${problems.length} catalogue drift problem(s); 'make check-erp' lists them`,
  ];
}
