/**
 * The oracle of the aggregate route: the same grouping computed by DuckDB from the NDJSON export of
 * the same filters (what a consumer could do without the route), and the comparison with the route's
 * answer. Shared by the sandbox suite (tests/e2e/aggregate.test.ts) and the live one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DimensionSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

export type Group = Record<string, unknown>;
export interface AskedDimension {
  readonly spelling: string;
  readonly dimension: DimensionSpec;
  readonly granularity?: string;
}

const text = (field: string) => `(j ->> '$.${field}')`;

/** DuckDB's expression of a dimension's label, as the route documents it (UTC buckets, weeks from Sunday). */
function keyExpression({ dimension, granularity }: AskedDimension): string {
  if (dimension.kind !== 'date' && dimension.kind !== 'date-time') return text(dimension.name);
  const day = dimension.kind === 'date' ? `CAST(${text(dimension.name)} AS DATE)` : `CAST(CAST(replace(replace(${text(dimension.name)}, 'T', ' '), 'Z', '') AS TIMESTAMP) AS DATE)`;
  switch (granularity) {
    case 'day':
      return `strftime(${day}, '%Y-%m-%d')`;
    case 'week':
      return `strftime(${day} - CAST(dayofweek(${day}) AS INTEGER), '%Y-%m-%d')`;
    case 'month':
      return `strftime(${day}, '%Y-%m')`;
    case 'quarter':
      return `strftime(${day}, '%Y') || '-Q' || CAST(quarter(${day}) AS VARCHAR)`;
    default:
      return `strftime(${day}, '%Y')`;
  }
}

/** `spelling` → DuckDB aggregate of the export's values. */
function measureExpression(spelling: string): string {
  const [name, aggregator] = spelling.split(':') as [string, string];
  const value = `CAST(${text(name)} AS DOUBLE)`;
  if (aggregator === 'count_distinct') return `CAST(count(DISTINCT ${text(name)}) AS DOUBLE)`;
  return `CAST(${aggregator}(${value}) AS DOUBLE)`;
}

/** The groups DuckDB computes from an NDJSON export: key (labels joined by '|') → count and measures. */
export async function duckDbGroups(
  ndjson: string,
  dimensions: readonly AskedDimension[],
  measures: readonly string[],
): Promise<Map<string, { count: number; measures: (number | null)[] }>> {
  const dir = mkdtempSync(join(tmpdir(), 'odg-agg-'));
  const file = join(dir, 'export.ndjson');
  writeFileSync(file, ndjson);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const keys = dimensions.map(keyExpression);
    const key = keys.length ? keys.map((k) => `coalesce(${k}, '∅')`).join(` || '|' || `) : `''`;
    const sql = `SELECT ${key} AS k, CAST(count(*) AS DOUBLE) AS n${measures.map((m, i) => `, ${measureExpression(m)} AS m${i}`).join('')}
      FROM (SELECT json AS j FROM read_ndjson_objects('${file}')) GROUP BY k`;
    const reader = await connection.runAndReadAll(ndjson.trim() === '' ? `SELECT NULL AS k WHERE false` : sql);
    const groups = new Map<string, { count: number; measures: (number | null)[] }>();
    for (const row of reader.getRows()) {
      groups.set(String(row[0]), { count: Number(row[1]), measures: row.slice(2).map((v) => (v === null ? null : Number(v))) });
    }
    return groups;
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The route's groups keyed as DuckDB's: a many2one's groups of the same name merged (the export has names only). */
export function routeGroups(
  groups: readonly Group[],
  dimensions: readonly AskedDimension[],
  measures: readonly string[],
): Map<string, { count: number; measures: (number | null)[]; merged: number }> {
  const merged = new Map<string, { count: number; measures: (number | null)[]; merged: number }>();
  for (const group of groups) {
    const key = dimensions.length ? dimensions.map((d) => (group[d.spelling] === null ? '∅' : String(group[d.spelling]))).join('|') : '';
    const values = measures.map((m) => group[m] as number | null);
    const seen = merged.get(key);
    if (!seen) merged.set(key, { count: group['count'] as number, measures: values, merged: 1 });
    else {
      seen.count += group['count'] as number;
      seen.merged++;
      seen.measures = seen.measures.map((v, i) => combine(measures[i] as string, v, values[i] ?? null));
    }
  }
  return merged;
}

function combine(spelling: string, a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  const aggregator = spelling.split(':')[1];
  if (aggregator === 'min') return Math.min(a, b);
  if (aggregator === 'max') return Math.max(a, b);
  return a + b; // sums and distinct counts of different records (avg of merged groups is not compared)
}

/** The dimensions of a resource a consumer may group by, each with a granularity (rotating through them). */
export function askableDimensions(resource: ResourceSpec): AskedDimension[] {
  const granularities = ['month', 'day', 'week', 'quarter', 'year'];
  return (resource.aggregate?.dimensions ?? []).map((dimension, i) =>
    dimension.kind === 'date' || dimension.kind === 'date-time'
      ? { spelling: `${dimension.name}:${granularities[i % granularities.length]}`, dimension, granularity: granularities[i % granularities.length] as string }
      : { spelling: dimension.name, dimension },
  );
}
