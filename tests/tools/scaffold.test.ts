/**
 * `make scaffold`: what it drafts from what the ERP tells (the model's `_order` as real Odoo 19
 * reports it, selections, many2one pairs, personal data, scope, what it leaves out), and how it
 * writes: into an existing domain file with the rest byte-identical, never over a resource, never
 * without a key; against the sandbox ERP over real HTTP.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startSandbox, type RunningSandbox } from '@ops-data-gateway/sandbox/http/start-sandbox';
import { createDemoKeys } from '@ops-data-gateway/sandbox/security/demo-keys';
import { initDatabase } from '@ops-data-gateway/sandbox/seed/init';
import { readCatalogue } from '../../codegen/generate';
import { scaffold } from '../../tools/scaffold/cli';
import { draftResource } from '../../tools/scaffold/draft-resource';
import type { ErpFieldFacts, ModelFacts } from '../../tools/scaffold/model-facts';
import { placeResource } from '../../tools/scaffold/resource-yaml';

const root = join(__dirname, '..', '..');

/** Fields of Odoo 19's fleet.vehicle.log.contract, as its fields_get answers (abridged). */
const CONTRACT: Record<string, ErpFieldFacts> = {
  id: { type: 'integer', string: 'ID', store: true, sortable: true, searchable: true },
  name: { type: 'char', string: 'Name', store: true, sortable: true, searchable: true },
  active: { type: 'boolean', string: 'Active', store: true, sortable: true, searchable: true },
  vehicle_id: { type: 'many2one', relation: 'fleet.vehicle', string: 'Vehicle', help: 'Vehicle concerned by this log', store: true, searchable: true, sortable: true },
  insurer_id: { type: 'many2one', relation: 'res.partner', string: 'Vendor', store: true, searchable: true, sortable: true },
  state: {
    type: 'selection',
    string: 'Status',
    help: 'Choose whether the contract is still valid or not',
    selection: [
      ['futur', 'Incoming'],
      ['open', 'In Progress'],
      ['expired', 'Expired'],
      ['closed', 'Closed'],
    ],
    store: true,
    sortable: true,
    searchable: true,
  },
  expiration_date: { type: 'date', string: 'Contract Expiration Date', store: true, sortable: true, searchable: true },
  amount: { type: 'monetary', string: 'Cost', store: true, sortable: true, searchable: true },
  days_left: { type: 'integer', string: 'Warning Date', store: false, sortable: false, searchable: false },
  notes: { type: 'html', string: 'Terms and Conditions', store: true, sortable: true, searchable: true },
  cost_subtype_id: { type: 'many2one', relation: 'fleet.service.type', string: 'Type', store: true, searchable: true, sortable: true, groups: 'fleet.fleet_group_manager' },
  service_ids: { type: 'many2many', relation: 'fleet.service.type', string: 'Included Services', store: true, searchable: true, sortable: false },
  ins_ref: { type: 'char', string: 'Reference', store: true, sortable: true, searchable: true },
  create_date: { type: 'datetime', string: 'Created on', store: true, sortable: true, searchable: true },
  message_ids: { type: 'one2many', relation: 'mail.message', string: 'Messages', store: true, searchable: true, sortable: false },
};

const facts = (extra: Partial<ModelFacts> = {}): ModelFacts => ({ model: 'fleet.vehicle.log.contract', fields: CONTRACT, notes: [], ...extra });

describe(draftResource.name, () => {
  const draft = draftResource(facts({ title: 'Vehicle Contract', order: 'state desc,expiration_date', indexed: new Set(['vehicle_id', 'ins_ref']) }), 'contracts');
  const field = (name: string) => draft.fields.find((f) => f.name === name);

  it.each([
    ["Odoo 19's _order of contracts", 'state desc,expiration_date', 'state desc, expiration_date asc', []],
    ['upper-case directions and id', 'name ASC, id DESC', 'name asc, id desc', []],
    ['a stored field the resource does not expose (order_only)', 'cost_subtype_id, id', 'cost_subtype_id asc, id asc', ['cost_subtype_id']],
    ['a dotted path, which the catalogue cannot say, dropped', 'vehicle_id.name, id desc', 'id desc', []],
    ['a term on a computed field, dropped', 'days_left desc', 'id asc', []],
  ])('takes the default order from the model _order: %s', (_name, order, expected, orderOnly) => {
    const drafted = draftResource(facts({ order }), 'contracts');
    expect([drafted.defaultOrder, drafted.orderOnly]).toEqual([expected, orderOnly]);
  });

  it('says when the ERP did not tell the model _order, and orders by id', () => {
    const drafted = draftResource(facts(), 'contracts');
    expect(drafted.defaultOrder).toBe('id asc');
    expect(drafted.notes.defaultOrder).toContain("the ERP did not tell the model's _order");
  });

  it('maps ERP types to API types, selections to enums, and labels with help to descriptions', () => {
    expect(field('state')?.spec).toEqual({
      type: 'string',
      enum: ['futur', 'open', 'expired', 'closed'],
      description: 'Status: choose whether the contract is still valid or not.',
      erp: 'state',
    });
    expect(field('expiration_date')?.spec).toEqual({ type: 'string', format: 'date', description: 'Contract Expiration Date.', erp: 'expiration_date' });
    expect(field('amount')?.spec).toMatchObject({ type: 'number', erp: 'amount' });
    expect(field('url')?.spec).toEqual({ type: 'string', description: 'Link to the record in the ERP interface.', erp: { gateway: 'url' } });
    expect(draft.title).toBe('Vehicle Contract');
  });

  it('exposes a many2one as a pair, name and id, and flags the name of a person as personal data for the operator to decide', () => {
    expect(field('vehicle')?.spec).toEqual({ type: 'string', description: 'Vehicle: vehicle concerned by this log.', erp: { many2one: 'vehicle_id', comodel: 'fleet.vehicle' } });
    expect(field('vehicle_id')?.spec).toEqual({
      type: 'integer',
      description: 'Identifier of the vehicle (fleet.vehicle).',
      erp: { many2one: 'vehicle_id', comodel: 'fleet.vehicle' },
    });
    expect(field('insurer')).toMatchObject({ spec: { personal: true }, comment: expect.stringContaining('personal data?') });
    expect(field('insurer_id')?.spec).not.toHaveProperty('personal');
  });

  it('scopes a model with active to active records, and says it is the operator who decides', () => {
    expect(draft.scope).toEqual([{ erp: 'active', op: '=', value: true }]);
    expect(field('active')).toBeUndefined();
    expect(draft.notes.scope).toContain('the operator decides');
  });

  it('leaves out computed, group-restricted, x2many, html and log fields, and lists each for the operator', () => {
    for (const name of ['days_left', 'cost_subtype', 'cost_subtype_id', 'service_ids', 'notes', 'create_date', 'message_ids'])
      expect([name, field(name)]).toEqual([name, undefined]);
    const said = draft.notes.resource.join('\n');
    expect(said).toContain('computed by the ERP (add as erp: { field: x, computed: true }): days_left');
    expect(said).toContain('readable only by some groups (add if the API account is in them): cost_subtype_id');
    expect(said).toContain('one2many/many2many (add as erp: { x2many: x, comodel: m }): service_ids');
    expect(said).toContain('no API type: notes (html)');
  });

  it('suggests filters on many2one ids, selections, date ranges, the name and indexed fields', () => {
    expect(Object.fromEntries(draft.filters.map((f) => [f.name, f.spec]))).toEqual({
      name: { op: 'ilike', field: 'name' },
      vehicle_id: { op: '=', field: 'vehicle_id' },
      insurer_id: { op: '=', field: 'insurer_id' },
      state: { op: '=', field: 'state' },
      expiration_date_after: { op: '>=', field: 'expiration_date' },
      expiration_date_before: { op: '<=', field: 'expiration_date' },
      ins_ref: { op: '=', field: 'ins_ref' },
    });
  });
});

describe(placeResource.name, () => {
  const draft = draftResource(
    facts({
      fields: {
        ...CONTRACT,
        cost_frequency: {
          type: 'selection',
          string: 'Frequency',
          selection: [
            ['no', 'No'],
            ['daily', 'Daily'],
          ],
          store: true,
          searchable: true,
        },
      },
    }),
    'contracts',
  );

  it('creates the file of a new domain, with values a YAML 1.1 reader would take for booleans quoted', () => {
    const placed = placeResource(undefined, 'contracts', 'contracts', draft);
    if (!placed.ok) throw new Error(placed.message);
    expect(placed.text).toMatch(/^# Contracts: created by make scaffold/);
    expect(placed.text).toContain('        enum:\n          - "no"\n          - daily\n');
    expect(placed.text).toContain('    scope:\n      - { erp: active, op: "=", value: true }\n');
  });

  it('refuses a resource the file already has', () => {
    expect(placeResource(readFileSync(join(root, 'catalogue', 'fleet.yaml'), 'utf8'), 'fleet', 'vehicles', draft)).toEqual({
      ok: false,
      message: "resource 'vehicles' already exists in domain 'fleet': the scaffold never overwrites one",
    });
  });
});

describe('scaffold against the sandbox ERP', () => {
  let sandbox: RunningSandbox;
  let key = '';
  let dir = '';
  let catalogue = '';
  const env = () => ({ ERP_URL: sandbox.url, ERP_DATABASE: sandbox.database, ERP_TRANSPORT: 'xmlrpc', ERP_LOGIN: 'gateway-api', ERP_CHECK_KEY: key });
  const run = async (argv: string[], environment: Record<string, string> = env()) => {
    let out = '';
    let err = '';
    const code = await scaffold(
      [...argv, '--catalogue', catalogue],
      environment,
      {
        out: (t) => {
          out += t;
        },
        err: (t) => {
          err += t;
        },
      },
      root,
    );
    return { code, out, err };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'odg-scaffold-test-'));
    initDatabase({ path: join(dir, 'sandbox.db') });
    sandbox = await startSandbox({ dbPath: join(dir, 'sandbox.db'), version: 19 });
    const db = new DatabaseSync(join(dir, 'sandbox.db'));
    key = createDemoKeys(db, sandbox.database).valid;
    db.close();
  });
  beforeEach(() => {
    catalogue = join(dir, `catalogue-${Date.now()}-${Math.random()}`);
    cpSync(join(root, 'catalogue'), catalogue, { recursive: true });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the resource to an existing domain file, the rest of it byte-identical, and the catalogue still generates', async () => {
    const before = readFileSync(join(catalogue, 'fleet.yaml'), 'utf8');
    const { code, out } = await run(['--model', 'fleet.vehicle.model.brand', '--domain', 'fleet', '--resource', 'brands']);
    expect(out).toContain('resources.brands (fleet.vehicle.model.brand, ');
    expect(code).toBe(0);
    const after = readFileSync(join(catalogue, 'fleet.yaml'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(/^ {2}# Scaffolded from the ERP's fields_get of fleet.vehicle.model.brand/);
    const model = readCatalogue({ catalogueDir: catalogue, root: catalogue });
    expect(model.domains.find((d) => d.domain === 'fleet')?.resources.map((r) => r.name)).toContain('brands');
  });

  it('refuses to overwrite an existing resource, and leaves the file alone (exit 1)', async () => {
    const before = readFileSync(join(catalogue, 'fleet.yaml'), 'utf8');
    const { code, err } = await run(['--model', 'fleet.vehicle', '--domain', 'fleet', '--resource', 'vehicles']);
    expect(err).toContain("resource 'vehicles' already exists in domain 'fleet': the scaffold never overwrites one");
    expect(code).toBe(1);
    expect(readFileSync(join(catalogue, 'fleet.yaml'), 'utf8')).toBe(before);
  });

  it.each([
    ['without ERP_CHECK_KEY', ['--model', 'fleet.vehicle.state', '--domain', 'fleet', '--resource', 'states'], { ERP_CHECK_KEY: '' }, 'ERP_CHECK_KEY is not set'],
    [
      'with a key the ERP refuses',
      ['--model', 'fleet.vehicle.state', '--domain', 'fleet', '--resource', 'states'],
      { ERP_CHECK_KEY: 'f'.repeat(40) },
      'the ERP refuses ERP_CHECK_KEY',
    ],
    [
      'for a model the ERP does not have',
      ['--model', 'fleet.vehicle.log.contract', '--domain', 'fleet', '--resource', 'contracts'],
      {},
      "the ERP has no model 'fleet.vehicle.log.contract'",
    ],
    ['for a resource name that is no URL segment', ['--model', 'fleet.vehicle.state', '--domain', 'fleet', '--resource', 'States'], {}, '--resource must be a URL segment'],
  ])('writes nothing %s (exit 2)', async (_name, argv, override, message) => {
    const before = readFileSync(join(catalogue, 'fleet.yaml'), 'utf8');
    const { code, err } = await run(argv, { ...env(), ...override });
    expect(err).toContain(message);
    expect(code).toBe(2);
    expect(readFileSync(join(catalogue, 'fleet.yaml'), 'utf8')).toBe(before);
  });
});
