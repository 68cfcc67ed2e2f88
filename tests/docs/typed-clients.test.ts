/**
 * Typed clients of `generated/openapi.json`, made by the tools a TypeScript developer reaches for
 * (openapi-typescript + openapi-fetch, @hey-api/openapi-ts), offline from the committed document:
 * - they compile under `tsc --strict` with the first idiom, `const {data, error} = await ...; if
 *   (error) throw ...; data.data`, on every list route (a list operation declares JSON only: were it
 *   to declare CSV too, `data` would be `string | page` and `data.data` a type error), with real
 *   types (a field the resource lacks is an error);
 * - the README's typed example, extracted from the README, compiles as it is written;
 * - then they run against the gateway on the sandbox ERP, over real HTTP: each client's page of every
 *   list route is the page the route answers, and the typed export call gets the export's text.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { operationId } from '../../codegen/model/names';
import { startStack, type Stack } from '../support/stack';
import { catalogue, ROOT } from './docs-app';

const run = promisify(execFile);
const OPENAPI = join(ROOT, 'packages', 'gateway', 'generated', 'openapi.json');
const QUIET = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
const resources = catalogue().domains.flatMap((d) => d.resources);

/** The JS file of a package's command, run with this very node (no PATH lookup). */
function bin(pkg: string, command: string): string {
  const manifest = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  return join(dirname(manifest), typeof bins === 'string' ? bins : (bins[command] as string));
}

/** The README's typed example: its one ```ts block that creates an openapi-fetch client. */
function readmeExample(): string {
  const blocks = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^( *)```ts\n([\s\S]*?)^\1```/gm)].map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n'),
  );
  const examples = blocks.filter((block) => block.includes('createClient<paths>('));
  if (examples.length !== 1) throw new Error(`README.md: expected one \`\`\`ts block with createClient<paths>(), found ${examples.length}`);
  return examples[0] as string;
}

/** openapi-fetch, created as its documentation's first example does: `createClient<paths>()`, no media type. */
function openapiFetchUsage(): string {
  const enumFilter = resources.flatMap((r) => r.filters.filter((f) => f.type === 'enum').map((f) => ({ r, f })))[0];
  if (!enumFilter) throw new Error('the catalogue has no enumerated filter to check');
  return [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './api';",
    'export function clientOf(baseUrl: string, key: string) {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the client source compiled below, template literal included.
    '  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });',
    '}',
    'type Client = ReturnType<typeof clientOf>;',
    ...resources.flatMap((r, i) => [
      `export async function list${i}(client: Client): Promise<number[]> {`,
      `  const { data, error } = await client.GET('/api/v1/${r.path}', { params: { query: { limit: 2, since_id: 0, total: false } } });`,
      '  if (error) throw error;',
      '  // @ts-expect-error a field no resource has',
      '  void data.data[0]?.no_such_field;',
      '  return data.data.map((record) => record.id);',
      '}',
    ]),
    'export async function oneVehicle(client: Client, id: number): Promise<number> {',
    "  const { data, error } = await client.GET('/api/v1/fleet/vehicles/{id}', { params: { path: { id } } });",
    '  if (error) throw new Error(error.error.code);',
    '  return data.data.id;',
    '}',
    // Related records (issue 30): typed through the relation, without a cast.
    'export async function lineTotals(client: Client): Promise<(number | null | undefined)[]> {',
    "  const { data, error } = await client.GET('/api/v1/purchase/orders', { params: { query: { limit: 5, expand: 'lines(id,price_total)' } } });",
    '  if (error) throw new Error(error.error.code);',
    '  const order = data.data[0];',
    '  const truncated: number[] | undefined = data.meta.expanded?.["lines"]?.truncated.map((cut) => cut.id);',
    '  void truncated;',
    '  // @ts-expect-error a field the lines do not have',
    '  void order?.lines?.[0]?.colour;',
    '  return [order?.lines?.[0]?.price_total, order?.lines?.[0]?.id];',
    '}',
    'export async function lineOrder(client: Client, id: number): Promise<string | null | undefined> {',
    "  const { data, error } = await client.GET('/api/v1/purchase/order-lines/{id}', { params: { path: { id }, query: { expand: 'order' } } });",
    '  if (error) throw new Error(error.error.code);',
    '  return data.data.order?.reference;',
    '}',
    // An export: its own operation, its text asked as text.
    'export async function vehicleIdsCsv(client: Client): Promise<string> {',
    "  const { data, error } = await client.GET('/api/v1/fleet/vehicles/export', { params: { query: { format: 'csv', fields: 'id' } }, parseAs: 'text' });",
    '  if (error) throw error;',
    '  return data;',
    '}',
    // Query parameters are typed: an enumerated filter takes its values only.
    `type EnumQuery = NonNullable<paths['/api/v1/${enumFilter.r.path}']['get']['parameters']['query']>;`,
    `export const good: EnumQuery = { ${enumFilter.f.name}: ${JSON.stringify(enumFilter.f.values?.[0])} };`,
    '// @ts-expect-error a value outside the enumeration',
    `export const bad: EnumQuery = { ${enumFilter.f.name}: 'not-a-listed-value' };`,
    `export const LISTS = [${resources.map((_r, i) => `list${i}`).join(', ')}];`,
    '',
  ].join('\n');
}

/** A @hey-api/openapi-ts SDK: one function per operation, named by its operationId. */
function heyApiUsage(): string {
  const names = resources.map((r) => operationId('list', r.domain, r.name));
  return [
    "import { createClient } from './hey/client';",
    `import { ${names.join(', ')} } from './hey/sdk.gen';`,
    'export function heyClientOf(baseUrl: string, key: string) {',
    '  return createClient({ baseUrl, auth: key });',
    '}',
    'type Client = ReturnType<typeof heyClientOf>;',
    ...names.flatMap((name, i) => [
      `export async function heyList${i}(client: Client): Promise<number[]> {`,
      `  const { data, error } = await ${name}({ client, query: { limit: 2, since_id: 0, total: false } });`,
      '  if (error) throw error;',
      '  // @ts-expect-error a field no resource has',
      '  void data.data[0]?.no_such_field;',
      '  return data.data.map((record) => record.id);',
      '}',
    ]),
    `export const HEY_LISTS = [${names.map((_n, i) => `heyList${i}`).join(', ')}];`,
    '',
  ].join('\n');
}

/** Runs every list call of both clients and the export call; prints what each got, as JSON. */
const RUNNER = `
import { clientOf, LISTS, vehicleIdsCsv } from './fetch-usage';
import { heyClientOf, HEY_LISTS } from './hey-usage';
const [baseUrl, key] = process.argv.slice(2) as [string, string];
const client = clientOf(baseUrl, key);
const hey = heyClientOf(baseUrl, key);
const fetched: number[][] = [];
const heyFetched: number[][] = [];
for (const list of LISTS) fetched.push(await list(client));
for (const list of HEY_LISTS) heyFetched.push(await list(hey));
process.stdout.write(JSON.stringify({ fetched, heyFetched, csv: await vehicleIdsCsv(client) }));
`;

/** Compiles `files` of `cwd` under `tsc --strict` (plus `extra` options); the diagnostics, '' when none. */
async function compile(name: string, files: string[], extra: Record<string, unknown>, cwd: string): Promise<string> {
  writeFileSync(
    join(cwd, name),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        module: 'ESNext',
        moduleResolution: 'bundler',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        skipLibCheck: false,
        paths: { 'openapi-fetch': [require.resolve('openapi-fetch').replace(/index\.c?js$/, 'index.d.mts')] },
        ...extra,
      },
      files,
    }),
  );
  return run(process.execPath, [bin('typescript', 'tsc'), '-p', join(cwd, name)], { cwd, maxBuffer: 16 * 1024 * 1024 }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout || String(error),
  );
}

describe('typed clients of openapi.json (openapi-fetch, @hey-api/openapi-ts)', () => {
  let dir = '';
  let stack: Stack;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ops-gw-typed-'));
    mkdirSync(join(dir, 'hey'));
    [stack] = await Promise.all([
      startStack({ transport: 'json2' }),
      run(process.execPath, [bin('openapi-typescript', 'openapi-typescript'), OPENAPI, '--output', join(dir, 'api.d.ts')], { cwd: dir, env: QUIET }),
      // The SDK plugin as @hey-api documents it: the fetch client bundled into the output, no runtime package.
      run(
        process.execPath,
        [bin('@hey-api/openapi-ts', 'openapi-ts'), '--input', OPENAPI, '--output', join(dir, 'hey'), '--plugins', '@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
        {
          cwd: dir,
          env: QUIET,
        },
      ),
    ]);
    writeFileSync(join(dir, 'readme-example.ts'), readmeExample());
    writeFileSync(join(dir, 'fetch-usage.ts'), openapiFetchUsage());
    writeFileSync(join(dir, 'hey-usage.ts'), heyApiUsage());
    writeFileSync(join(dir, 'runner.ts'), RUNNER);
  }, 180000);
  afterAll(async () => {
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles under tsc --strict: the README example, and both clients on every list route with data.data after the error check', async () => {
    // openapi-fetch's types also hold under exactOptionalPropertyTypes; @hey-api's bundled client code does not (its own code, not the document's types).
    const fetchErrors = await compile('tsconfig.fetch.json', ['api.d.ts', 'readme-example.ts', 'fetch-usage.ts'], { exactOptionalPropertyTypes: true }, dir);
    const heyErrors = await compile('tsconfig.hey.json', ['api.d.ts', 'hey-usage.ts', 'runner.ts'], {}, dir);
    expect([fetchErrors, heyErrors]).toEqual(['', '']);
  }, 180000);

  it('the same list operations do not compile when they declare the export media types (the oracle can fail)', async () => {
    // The document as it was: the list's 200 declaring text/csv beside JSON. data.data is then a type error.
    const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }> };
    const list = doc.paths['/api/v1/fleet/vehicles'];
    if (!list) throw new Error('no /api/v1/fleet/vehicles in openapi.json');
    (list.get.responses['200']?.content as Record<string, unknown>)['text/csv'] = { schema: { type: 'string' } };
    // The one path the README example calls: a smaller document to compile.
    doc.paths = { '/api/v1/fleet/vehicles': list };
    const old = join(dir, 'old');
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'openapi.json'), JSON.stringify(doc));
    await run(process.execPath, [bin('openapi-typescript', 'openapi-typescript'), join(old, 'openapi.json'), '--output', join(old, 'api.d.ts')], { cwd: old, env: QUIET });
    writeFileSync(join(old, 'readme-example.ts'), readmeExample());
    const diagnostics = await compile('tsconfig.json', ['api.d.ts', 'readme-example.ts'], {}, old);
    expect(diagnostics).toMatch(/readme-example\.ts\([0-9]+,[0-9]+\): error TS2339: Property 'data' does not exist on type [\s\S]*Property 'data' does not exist on type 'string'/);
  }, 180000);

  it('runs both clients against the gateway: every list route gives the page the route answers, the export its CSV', async () => {
    await build({
      entryPoints: [join(dir, 'runner.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: join(dir, 'runner.mjs'),
      logLevel: 'silent',
      tsconfigRaw: '{}',
      nodePaths: [join(ROOT, 'node_modules')],
    });
    const { stdout } = await run(process.execPath, [join(dir, 'runner.mjs'), stack.url, stack.keys.valid], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    const got = JSON.parse(stdout) as { fetched: number[][]; heyFetched: number[][]; csv: string };
    const expected: number[][] = [];
    for (const r of resources)
      expected.push(((await stack.get(`/api/v1/${r.path}?limit=2&since_id=0&total=false`)).body as { data: { id: number }[] }).data.map((record) => record.id));
    // Every route has records on the sandbox: an empty page would prove nothing.
    expect(expected.filter((ids) => ids.length === 0)).toEqual([]);
    expect(got.fetched).toEqual(expected);
    expect(got.heyFetched).toEqual(expected);
    const csv = await stack.get('/api/v1/fleet/vehicles/export?format=csv&fields=id');
    expect(got.csv.split('\r\n')[0]).toBe('id');
    expect(got.csv.split('\r\n').length).toBe((csv.text ?? '').split('\r\n').length);
  }, 120000);

  it('runs the README example as written, against the gateway', async () => {
    const example = readmeExample();
    writeFileSync(join(dir, 'readme-run.ts'), example.replace(/'http:\/\/127\.0\.0\.1:8080'/, 'process.argv[2] as string'));
    await build({
      entryPoints: [join(dir, 'readme-run.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: join(dir, 'readme-run.mjs'),
      logLevel: 'silent',
      tsconfigRaw: '{}',
      nodePaths: [join(ROOT, 'node_modules')],
    });
    const { stdout } = await run(process.execPath, [join(dir, 'readme-run.mjs'), stack.url], { cwd: dir, env: { ...QUIET, API_KEY: stack.keys.valid } });
    const page = (await stack.get('/api/v1/fleet/vehicles?limit=2')).body as { data: { plate: string | null }[] };
    expect(stdout.trim()).toBe(require('node:util').inspect(page.data.map((v) => v.plate)));
  }, 120000);
});
