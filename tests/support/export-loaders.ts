/**
 * Loads an export the way its consumers do, for the suites that compare it with the JSON list:
 * DuckDB (`@duckdb/node-api`, its own CSV reader) and Python's csv module (/usr/bin/python3).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Test } from 'supertest';

/** What supertest's `.parse` takes on Node: the answer as a stream, and a callback with the body. */
type NodeParser = Exclude<Parameters<Test['parse']>[0], (text: string) => unknown>;

/** A supertest parser that keeps the body as the text it is (an export is neither JSON nor a form): `.buffer(true).parse(asText)`. */
export const asText: NodeParser = (stream, done) => {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
  });
  stream.on('end', () => done(null, text));
};

/**
 * Every row of a CSV text as DuckDB reads it: text values, `null` for a NULL (an empty unquoted
 * field); and how many rows the README's typed recipe (types detected) loads.
 */
export async function loadCsvWithDuckDb(csv: string): Promise<{ columns: string[]; rows: (string | null)[][]; typedRows: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'odg-duckdb-'));
  try {
    const file = join(dir, 'export.csv');
    writeFileSync(file, csv);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      // The README's recipe: a quoted empty field is an empty text, an unquoted one is NULL.
      const reader = await connection.runAndReadAll(`SELECT * FROM read_csv('${file}', header = true, all_varchar = true, allow_quoted_nulls = false)`);
      await connection.run(`CREATE TABLE typed AS SELECT * FROM read_csv('${file}', header = true, allow_quoted_nulls = false)`);
      const typed = await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM typed');
      return {
        columns: reader.columnNames(),
        rows: reader.getRows().map((row) => row.map((value) => (value === null ? null : String(value)))),
        typedRows: Number(typed.getRows()[0]?.[0]),
      };
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PYTHON_CSV = `
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
json.dump(rows, sys.stdout)
`;

/** Every row of a CSV text as Python's csv module reads it (header row first). */
export function loadCsvWithPython(csv: string): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'odg-pycsv-'));
  try {
    const file = join(dir, 'export.csv');
    writeFileSync(file, csv);
    const run = spawnSync('/usr/bin/python3', ['-c', PYTHON_CSV, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`python3 csv failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as string[][];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a spreadsheet would read as a formula at the start of a text (OWASP's list, and the full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A JSON record value as the export's CSV documents it: null stays null (an empty field), arrays as
 * JSON text; a text a spreadsheet would read as a formula with a `'` in front, unless `csv_formulas=raw`.
 */
export function csvText(value: unknown, formulas: 'escaped' | 'raw' = 'escaped'): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return formulas === 'escaped' && FORMULA_START.test(value) ? `'${value}` : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
