/**
 * Adding a resource is a change of one YAML file, proven on the small fixture catalogue
 * (tests/fixtures/small): a copy of it gets one more resource (fleet/alerts, a model of the sandbox
 * ERP) in its fleet.yaml and nothing else; generated as `make generate` does, every generated
 * artefact that describes resources carries it and no other file changes; and a gateway built from
 * that output (the real runtime, unchanged, against the sandbox ERP over real HTTP) serves it on
 * every surface: the list and detail routes, the OpenAPI document, the docs page, llms.txt and the
 * MCP tools. The generated modules are swapped for the temporary ones with jest.doMock before
 * anything that imports them is loaded, as tests/tools/scaffold-sandbox.test.ts does.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { generate } from '../../codegen/generate';
import { writeGenerated } from '../../codegen/write';
import type * as OpenApiResponses from '../support/openapi-responses';
import type * as StackModule from '../support/stack';
import type * as GeneratedRouters from '@ops-data-gateway/gateway/generated/routers/index';

const root = join(__dirname, '..', '..');
const fixture = join(root, 'tests', 'fixtures', 'small');
const schemaFile = join(root, 'catalogue', 'catalogue.schema.json');

/** The resource added: YAML only, appended under the fixture's fleet resources. */
const ALERTS = `  alerts:
    title: Alerts
    description: "Due-date alerts on vehicles."
    model: fleet.alert
    default_order: due_date asc
    fields:
      id: { type: integer, description: Technical identifier of the alert., erp: id }
      name: { type: string, description: Title of the alert., erp: name }
      vehicle_id: { type: integer, description: Identifier of the vehicle concerned., erp: { many2one: vehicle_id, comodel: fleet.vehicle } }
      due_date: { type: string, format: date, description: Due date., erp: due_date }
      state:
        type: string
        description: Handling state.
        enum: [pending, handled, late]
        erp: { field: state, computed: true }
    filters:
      state: { op: "=", field: state }
      due_before: { op: "<=", field: due_date }
`;

const work = mkdtempSync(join(tmpdir(), 'odg-add-a-resource-'));
// The copy sits at the fixture's own path under `work`, so that the banners, which name the catalogue
// file a module comes from, are those of the committed tree.
const catalogueDir = join(work, relative(root, fixture), 'catalogue');
cpSync(join(fixture, 'catalogue'), catalogueDir, { recursive: true });
writeFileSync(join(catalogueDir, 'fleet.yaml'), readFileSync(join(catalogueDir, 'fleet.yaml'), 'utf8') + ALERTS);
const generatedDir = join(work, 'generated');
writeGenerated(generatedDir, generate({ catalogueDir, root: work, schemaFile }), false);
// The generated files import the runtime (../../runtime from generated/routers/, types only today) and may import
// packages (the project's node_modules): both are found beside them.
symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
symlinkSync(join(root, 'packages', 'gateway', 'runtime'), join(work, 'runtime'));
jest.doMock('@ops-data-gateway/gateway/generated/routers/index', () => jest.requireActual(join(generatedDir, 'routers')));
jest.doMock('@ops-data-gateway/gateway/generated/openapi.json', () => jest.requireActual(join(generatedDir, 'openapi.json')));
jest.doMock('@ops-data-gateway/gateway/generated/mcp-tools.json', () => jest.requireActual(join(generatedDir, 'mcp-tools.json')));
jest.doMock('@ops-data-gateway/gateway/generated/docs-assets', () => jest.requireActual(join(generatedDir, 'docs-assets')));
const { RESOURCES } = require('@ops-data-gateway/gateway/generated/routers/index') as typeof GeneratedRouters;
const { startStack } = require('../support/stack') as typeof StackModule;
const { expectDocumented } = require('../support/openapi-responses') as typeof OpenApiResponses;

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`, by its path relative to it. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/** The paths whose content differs between two trees, or that only one has. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path)).sort();
}

describe('adding a resource to the fixture catalogue', () => {
  it('is a change of one YAML file', () => {
    expect(changed(tree(join(fixture, 'catalogue')), tree(catalogueDir))).toEqual(['fleet.yaml']);
  });

  it('changes exactly the generated files that describe resources, each of them carrying it', () => {
    const before = tree(join(fixture, 'generated'));
    const after = tree(generatedDir);
    expect(changed(before, after)).toEqual(['docs-assets.ts', 'mcp-tools.json', 'openapi.json', 'resources/fleet.ts', 'routers/fleet.ts', 'types/fleet.ts']);
    expect(after.get('resources/fleet.ts')).toContain("path: 'fleet/alerts'");
    expect(after.get('types/fleet.ts')).toContain('export interface FleetAlertsRecord');
    expect(after.get('routers/fleet.ts')).toContain('/alerts');
    expect(Object.keys(JSON.parse(after.get('openapi.json') as string).paths)).toEqual(expect.arrayContaining(['/api/v1/fleet/alerts', '/api/v1/fleet/alerts/{id}']));
    expect(after.get('mcp-tools.json')).toContain('"alerts"');
    expect(after.get('docs-assets.ts')).toContain('<article class="res" id="fleet/alerts">');
    expect(after.get('docs-assets.ts')).toContain('\n### fleet/alerts: Alerts\n');
  });

  describe('served by the runtime as it is, on the sandbox ERP', () => {
    let stack: StackModule.Stack;
    beforeAll(async () => {
      stack = await startStack({ transport: 'json2' });
    }, 60000);
    afterAll(() => stack?.close());

    it('has it among the resources it serves', () => {
      expect(RESOURCES.map((r) => r.path)).toEqual(['fleet/alerts', 'fleet/vehicles', 'it/tickets']);
    });

    it('answers its list and detail routes with the ERP records, as its OpenAPI document describes them', async () => {
      const db = new DatabaseSync(stack.dbPath, { readOnly: true });
      const erp = db.prepare('SELECT id, name FROM fleet_alert ORDER BY id').all() as { id: number; name: string }[];
      db.close();
      expect(erp.length).toBeGreaterThan(0);
      const list = expectDocumented('/api/v1/fleet/alerts?since_id=0&limit=200', await stack.get('/api/v1/fleet/alerts?since_id=0&limit=200'));
      expect(list.status).toBe(200);
      expect(list.body.meta.total).toBe(erp.length);
      const served = list.body.data as { id: number; name: string }[];
      expect(served.map((r) => [r.id, r.name])).toEqual(erp.slice(0, 200).map((r) => [r.id, r.name]));
      expect(Object.keys(served[0] as object)).toEqual(['id', 'name', 'vehicle_id', 'due_date', 'state']);
      const first = served[0] as { id: number };
      const detail = expectDocumented(`/api/v1/fleet/alerts/${first.id}`, await stack.get(`/api/v1/fleet/alerts/${first.id}`));
      expect([detail.status, detail.body.data]).toEqual([200, first]);
      const filtered = await stack.get('/api/v1/fleet/alerts?state=bogus');
      expect([filtered.status, filtered.body.error.code]).toEqual([422, 'invalid_value']);
    });

    it('documents it in the OpenAPI document, the docs page and llms.txt it serves', async () => {
      const openapi = await stack.get('/api/openapi.json', null);
      expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/v1/fleet/alerts', '/api/v1/fleet/alerts/{id}']));
      expect((await stack.get('/api/docs', null)).text).toContain('<article class="res" id="fleet/alerts">');
      expect((await stack.get('/llms.txt', null)).text).toContain('\n### fleet/alerts: Alerts\n');
    });

    it('offers it through the MCP tools', async () => {
      const rpc = async (id: number, method: string, params: object) =>
        (
          await fetch(`${stack.url}/mcp`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${stack.keys.valid}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
          })
        ).json() as Promise<{ result: { structuredContent?: { resources?: { resource: string }[]; data?: unknown[] }; isError?: boolean } }>;
      const listed = await rpc(1, 'tools/call', { name: 'list_resources', arguments: {} });
      expect(listed.result.structuredContent?.resources?.map((r) => r.resource)).toContain('fleet/alerts');
      const queried = await rpc(2, 'tools/call', { name: 'query_fleet', arguments: { resource: 'alerts', limit: 2 } });
      expect(queried.result.isError).toBeFalsy();
      expect(queried.result.structuredContent?.data).toHaveLength(2);
    });
  });
});
