/**
 * runDriftCheck over real HTTP against the sandbox: the catalogue and the plain sandbox agree; each
 * kind of drift the sandbox can be started with is reported as one precise problem.
 */
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { loadConfig } from '@ops-data-gateway/gateway/runtime/config';
import { ErpClient } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import { runDriftCheck } from '@ops-data-gateway/gateway/runtime/drift/run-drift-check';
import type { RegistryDrift } from '@ops-data-gateway/sandbox/orm/registry-drift';
import type { OdooVersion } from '@ops-data-gateway/sandbox/orm/types';
import { createDriftDatabase, gatewayEnv, type DriftDatabase } from './support/drift-sandbox';

let database: DriftDatabase;
beforeAll(() => {
  database = createDriftDatabase();
});
afterAll(() => database.close());

async function check(drift?: RegistryDrift, transport = 'auto', version: OdooVersion = 19, key = database.keys.valid) {
  const sandbox = await database.serve(drift, version);
  const config = loadConfig(gatewayEnv(sandbox, { ERP_TRANSPORT: transport }));
  return runDriftCheck(new ErpClient(config.erp), key, RESOURCES);
}

describe(runDriftCheck.name, () => {
  it.each([
    ['JSON-2 on Odoo 19', 'json2', 19],
    ['XML-RPC on Odoo 19', 'xmlrpc', 19],
  ] as const)('finds no drift on the plain sandbox (%s)', async (_name, transport, version) => {
    const result = await check(undefined, transport, version);
    expect(result).toEqual({ ok: true, problems: [], models: expect.any(Number) });
  });

  // What a real Odoo 17 and 18 show (docs/compatibility.md): the catalogue names 19's order states,
  // and 17 and 18 also lock an order in `done`; 17 cannot sort on a company-dependent field, nor group
  // on fields it does not store.
  it.each([
    ['JSON-RPC on Odoo 17', 'jsonrpc', 17],
    ['XML-RPC on Odoo 18', 'xmlrpc', 18],
  ] as const)("finds only the version's own differences on the plain sandbox (%s)", async (_name, transport, version) => {
    const result = await check(undefined, transport, version);
    const locked = (resource: string) => ({
      resource,
      kind: 'selection_unknown_to_catalogue',
      model: 'purchase.order',
      field: 'state',
      detail: "ERP value(s) 'done' not in the catalogue enum (a response would break the OpenAPI document)",
      uses: ['field state', 'filter state'],
    });
    const unsortable = {
      resource: 'analytic/dimensions',
      kind: 'not_sortable',
      model: 'account.analytic.plan',
      field: 'default_applicability',
      detail: 'the ERP cannot sort on account.analytic.plan.default_applicability',
      uses: ['order applicability'],
    };
    // 17 has no `groupable`: a field it does not store cannot be grouped (live 17: "Cannot convert … to SQL").
    const ungroupable = [
      {
        resource: 'analytic/dimensions',
        kind: 'not_groupable',
        model: 'account.analytic.plan',
        field: 'default_applicability',
        detail: 'the ERP cannot group or aggregate account.analytic.plan.default_applicability (not stored)',
        uses: ['dimension applicability'],
      },
      {
        resource: 'fleet/services',
        kind: 'not_groupable',
        model: 'fleet.vehicle.log.services',
        field: 'currency_id',
        detail: 'the ERP cannot group or aggregate fleet.vehicle.log.services.currency_id (not stored)',
        uses: ['dimension currency', 'dimension currency_id', 'measure currency', 'measure currency_id'],
      },
    ];
    const problems = [...(version === 17 ? [unsortable, ...ungroupable] : []), locked('purchase/order-lines'), locked('purchase/orders')];
    expect(result).toEqual({ ok: true, problems, models: expect.any(Number) });
  });
});

describe('runDriftCheck on a drifted sandbox', () => {
  const alerts = { resource: 'fleet/alerts', model: 'fleet.alert' };
  it.each<[string, RegistryDrift, object[]]>([
    [
      'a removed model',
      { removeModels: ['fleet.alert'] },
      [{ ...alerts, kind: 'missing_model', field: '', detail: 'model fleet.alert does not exist in the ERP', uses: ['resource'] }],
    ],
    [
      'a removed field',
      { removeFields: ['fleet.alert.reminder_days'] },
      [
        {
          ...alerts,
          kind: 'missing_field',
          field: 'reminder_days',
          detail: 'field fleet.alert.reminder_days does not exist in the ERP',
          uses: ['field reminder_days', 'order reminder_days', 'measure reminder_days'],
        },
      ],
    ],
    [
      'an added selection value',
      { addSelectionValues: ['fleet.alert.alert_type=recall'] },
      [
        {
          ...alerts,
          kind: 'selection_unknown_to_catalogue',
          field: 'alert_type',
          detail: "ERP value(s) 'recall' not in the catalogue enum (a response would break the OpenAPI document)",
          uses: ['field type', 'filter type'],
        },
      ],
    ],
    [
      'a field the ERP cannot sort',
      { unsortableFields: ['fleet.alert.due_date'] },
      [
        { ...alerts, kind: 'not_sortable', field: 'due_date', detail: 'the ERP cannot sort on fleet.alert.due_date', uses: ['default order', 'order due_date'] },
        // What cannot be sorted (not stored) cannot be grouped either: the aggregate route's dimension goes too.
        { ...alerts, kind: 'not_groupable', field: 'due_date', detail: 'the ERP cannot group or aggregate fleet.alert.due_date (not stored)', uses: ['dimension due_date'] },
      ],
    ],
    [
      'a field the ERP cannot search',
      { unsearchableFields: ['fleet.alert.due_date'] },
      [{ ...alerts, kind: 'not_searchable', field: 'due_date', detail: 'the ERP cannot search on fleet.alert.due_date', uses: ['filter due_before', 'filter due_after'] }],
    ],
    [
      'a type that cannot map',
      { retypeFields: ['fleet.alert.name=integer'] },
      [{ ...alerts, kind: 'type_mismatch', field: 'name', detail: 'catalogue string, ERP integer (fits: char, text, html, selection, date, datetime)', uses: ['field name'] }],
    ],
  ])('reports %s', async (_name, drift, problems) => {
    const result = await check(drift);
    expect(result).toEqual({ ok: true, problems, models: expect.any(Number) });
  });

  it('reports a removed field of a related comodel on the resource reading it', async () => {
    const result = await check({ removeFields: ['approval.request.request_owner_id'] });
    expect(result.ok && result.problems).toContainEqual({
      resource: 'approvals/request-lines',
      kind: 'missing_field',
      model: 'approval.request',
      field: 'request_owner_id',
      detail: 'field approval.request.request_owner_id does not exist in the ERP',
      // The author's name and its id beside it, both read through the request.
      uses: ['field author', 'field author_id'],
    });
  });

  it('answers an error value, not an exception, without a key, with a refused key, and without an ERP', async () => {
    expect(await check(undefined, 'auto', 19, '')).toMatchObject({ ok: false, code: 'no_check_key' });
    expect(await check(undefined, 'json2', 19, 'not-a-key')).toMatchObject({ ok: false, code: 'check_key_refused' });
    expect(await check(undefined, 'xmlrpc', 19, 'not-a-key')).toMatchObject({ ok: false, code: 'check_key_refused' });
    const config = loadConfig({ ERP_URL: 'http://127.0.0.1:9', ERP_DATABASE: 'sandbox', ERP_TIMEOUT_MS: '1000' });
    expect(await runDriftCheck(new ErpClient(config.erp), 'some-key', RESOURCES)).toMatchObject({ ok: false, code: 'erp_error' });
  });
});
