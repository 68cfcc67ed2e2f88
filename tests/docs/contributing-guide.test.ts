/**
 * The contributor guide (docs/contributing.md) says what the code does: its table of the steps of a
 * data request is the one that opens the route core (packages/gateway/runtime/data-routes/guard.ts),
 * and every file or folder it names exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const runtime = join(root, 'packages', 'gateway', 'runtime');
const guide = readFileSync(join(root, 'docs', 'contributing.md'), 'utf8');
const guard = readFileSync(join(runtime, 'data-routes', 'guard.ts'), 'utf8');

/** The rows of the first Markdown table after `start` (the header row and its rule included). */
function tableAfter(lines: readonly string[], start: number): string[] {
  const first = lines.findIndex((line, i) => i >= start && line.startsWith('| '));
  const rows: string[] = [];
  for (let i = first; i >= 0 && i < lines.length && lines[i]?.startsWith('|'); i++) rows.push(lines[i] as string);
  return rows;
}

const guideLines = guide.split('\n');
const guideSteps = tableAfter(guideLines, guideLines.indexOf('## The steps of a data request'));
const codeLines = guard
  .slice(0, guard.indexOf('*/'))
  .split('\n')
  .map((line) => line.replace(/^ \* ?/, ''));
const codeSteps = tableAfter(codeLines, 0);

test('the guide gives the steps of a data request as the route core does', () => {
  expect(codeSteps.length).toBeGreaterThan(10);
  expect(guideSteps).toEqual(codeSteps);
});

test('every file the steps name exists in the runtime', () => {
  const files = codeSteps.slice(2).flatMap((row) => (row.split('|')[2] ?? '').split(',').map((file) => file.trim()));
  expect(files.length).toBeGreaterThan(codeSteps.length - 2);
  expect(files.filter((file) => !existsSync(join(runtime, file)))).toEqual([]);
});

test('every path the guide names exists, from the project root or the runtime', () => {
  const paths = [...guide.matchAll(/`([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\/?)`/g)].map((match) => match[1] as string);
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((path) => !existsSync(join(root, path)) && !existsSync(join(runtime, path)))).toEqual([]);
});
