/**
 * `generated/openapi.json` as third-party tools see it: Redocly's recommended ruleset finds no
 * error, and a TypeScript client generated with openapi-typescript compiles, with real types (a
 * wrong enum value is a type error). Both tools run in child processes, offline.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { recordTypeName } from '../../codegen/model/names';
import { catalogue, ROOT } from './docs-app';

const run = promisify(execFile);
const OPENAPI = join(ROOT, 'packages', 'gateway', 'generated', 'openapi.json');
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** The JS file of a package's command, run with this very node (no PATH lookup). */
function bin(pkg: string, command: string): string {
  const manifest = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bins === 'string' ? bins : (bins[command] as string));
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('openapi.json with third-party tools', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ops-gw-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes Redocly lint (recommended ruleset, redocly.yaml) with no error', async () => {
    const { stdout } = await run(process.execPath, [bin('@redocly/cli', 'redocly'), 'lint', OPENAPI, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
      env: QUIET,
      maxBuffer: 32 * 1024 * 1024,
    });
    const report = JSON.parse(stdout) as LintReport;
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60000);

  it('gives a TypeScript client (openapi-typescript types, openapi-fetch calls with the idiomatic error check) that compiles under strict tsc', async () => {
    await run(process.execPath, [bin('openapi-typescript', 'openapi-typescript'), OPENAPI, '--output', join(dir, 'api.d.ts')], { cwd: dir, env: QUIET });
    const resources = catalogue().domains.flatMap((d) => d.resources);
    const enumFilter = resources.flatMap((r) => r.filters.filter((f) => f.type === 'enum').map((f) => ({ r, f })))[0];
    if (!enumFilter) throw new Error('the catalogue has no enumerated filter to check');
    const usage = [
      "import type { components, operations, paths } from './api';",
      'type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;',
      ...resources.flatMap((r, i) => [
        `type List${i} = Json<paths['/api/v1/${r.path}']['get']['responses'][200]>;`,
        `type Detail${i} = Json<paths['/api/v1/${r.path}/{id}']['get']['responses'][200]>;`,
        `export const list${i}: List${i} = { data: [{ id: 1 }], meta: { total: 1, next_since_id: null } };`,
        `export const detail${i}: Detail${i} = { data: { id: 1 } as components['schemas']['${recordTypeName(r.domain, r.name)}'] };`,
        `export const query${i}: NonNullable<paths['/api/v1/${r.path}']['get']['parameters']['query']> = { limit: 10, total: false };`,
      ]),
      `type EnumQuery = NonNullable<paths['/api/v1/${enumFilter.r.path}']['get']['parameters']['query']>;`,
      `export const good: EnumQuery = { ${enumFilter.f.name}: ${JSON.stringify(enumFilter.f.values?.[0])} };`,
      '// @ts-expect-error a value outside the enumeration',
      `export const bad: EnumQuery = { ${enumFilter.f.name}: 'not-a-listed-value' };`,
      'export type Ops = keyof operations;',
      // The idiomatic openapi-fetch call: once `error` is handled, `data` is the page, typed.
      "import createClient from 'openapi-fetch';",
      // List routes also answer text/csv and application/x-ndjson (exports): a typed client picks JSON, as openapi-fetch documents.
      "const client = createClient<paths, 'application/json'>({ baseUrl: 'http://127.0.0.1:8080' });",
      'export async function plates(): Promise<(string | null)[]> {',
      "  const { data, error } = await client.GET('/api/v1/fleet/vehicles', { params: { query: { limit: 2, order: 'plate desc' } } });",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the client source compiled below, template literal included.
      '  if (error) throw new Error(`${error.error.code}: ${error.error.message}`);',
      '  // @ts-expect-error a field the resource does not have',
      '  void data.data[0]?.colour;',
      '  return data.data.map((vehicle) => vehicle.plate ?? null);',
      '}',
      // Related records (issue 30): typed through the relation, without a cast.
      'export async function lineTotals(): Promise<(number | null | undefined)[]> {',
      "  const { data, error } = await client.GET('/api/v1/purchase/orders', { params: { query: { limit: 5, expand: 'lines(id,price_total)' } } });",
      '  if (error) throw new Error(error.error.code);',
      '  const order = data.data[0];',
      '  const truncated: number[] | undefined = data.meta.expanded?.["lines"]?.truncated.map((cut) => cut.id);',
      '  void truncated;',
      '  // @ts-expect-error a field the lines do not have',
      '  void order?.lines?.[0]?.colour;',
      '  return [order?.lines?.[0]?.price_total, order?.lines?.[0]?.id];',
      '}',
      'export async function lineOrder(id: number): Promise<string | null | undefined> {',
      "  const { data, error } = await client.GET('/api/v1/purchase/order-lines/{id}', { params: { path: { id }, query: { expand: 'order' } } });",
      '  if (error) throw new Error(error.error.code);',
      '  return data.data.order?.reference;',
      '}',
      'export async function oneVehicle(id: number) {',
      "  const { data, error } = await client.GET('/api/v1/fleet/vehicles/{id}', { params: { path: { id } } });",
      '  if (error) throw new Error(error.error.code);',
      '  return data.data.id;',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'usage.ts'), usage);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          types: [],
          skipLibCheck: false,
          exactOptionalPropertyTypes: true,
          paths: { 'openapi-fetch': [require.resolve('openapi-fetch').replace(/index\.c?js$/, 'index.d.mts')] },
        },
        files: ['api.d.ts', 'usage.ts'],
      }),
    );
    const tsc = bin('typescript', 'tsc');
    const diagnostics = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout || String(error),
    );
    expect(diagnostics).toBe('');
  }, 120000);
});
