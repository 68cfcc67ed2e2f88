/**
 * `make scaffold` proven on every sandbox model that no catalogue resource exposes: each is
 * scaffolded by the compiled command over JSON-2 with the API account's key into a copy of
 * catalogue/ (a new `scaffolded` domain), the copy is generated into a temporary generated/ as
 * `make generate` does, and the gateway serves it against a fresh sandbox while the live-ERP suite
 * (tests/live/resource-suite.ts: lists, detail, fields, every filter with the ERP's own values, every
 * sort key, both pagings, the default order, scope, keys, every response valid against the
 * scaffolded catalogue's own openapi.json) runs on each scaffolded resource.
 *
 * The generated modules are swapped for the temporary ones with jest.doMock, before anything that
 * imports them is loaded: nothing is faked, the gateway, its ERP client and the sandbox are the real
 * ones over real HTTP; only which catalogue the gateway was generated from differs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { livePlan, type LiveErpSettings } from '../../live/settings';
import type { LiveTarget } from '../live/live-target';
import type * as ResourceSuite from '../live/resource-suite';
import type * as LiveTargetModule from '../live/live-target';
import type * as StackModule from '../support/stack';
import type * as GeneratedRouters from '@ops-data-gateway/gateway/generated/routers/index';

const root = join(__dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'odg-scaffold-sandbox-'));
// The generated files import the runtime (../../runtime from generated/routers/, types only today) and may
// import packages (the project's node_modules): both are found where they are beside them.
symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
symlinkSync(join(root, 'packages', 'gateway', 'runtime'), join(work, 'runtime'));
const prepared = JSON.parse(
  execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(__dirname, 'scaffold-sandbox-catalogue.mjs'), work], { encoding: 'utf8', timeout: 180_000 }),
) as { models: string[]; resources: string[]; refused: { model: string; said: string }[] };
const generated = join(work, 'generated');
jest.doMock('@ops-data-gateway/gateway/generated/routers/index', () => jest.requireActual(join(generated, 'routers')));
jest.doMock('@ops-data-gateway/gateway/generated/openapi.json', () => jest.requireActual(join(generated, 'openapi.json')));
jest.doMock('@ops-data-gateway/gateway/generated/docs-assets', () => jest.requireActual(join(generated, 'docs-assets')));
const { describeLiveSuite } = require('../live/resource-suite') as typeof ResourceSuite;
const { sandboxRightsSwitch, startLiveTarget } = require('../live/live-target') as typeof LiveTargetModule;
const { startStack } = require('../support/stack') as typeof StackModule;
const { RESOURCES } = require('@ops-data-gateway/gateway/generated/routers/index') as typeof GeneratedRouters;

/** The sandbox's API account may not read odometer readings (docs/development.md, "The sandbox ERP"): served, it answers 403. */
const UNREADABLE_MODEL = 'scaffolded/fleet-vehicle-odometer';

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('make scaffold on the sandbox models no resource exposes', () => {
  it('scaffolds every one of them into YAML that generates (nothing refused)', () => {
    expect(prepared.models.length).toBeGreaterThan(30);
    expect(prepared.refused).toEqual([]);
    expect(prepared.resources).toHaveLength(prepared.models.length);
    const yaml = readFileSync(join(work, 'catalogue', 'scaffolded.yaml'), 'utf8');
    for (const model of prepared.models) expect(yaml).toContain(`model: ${model}\n`);
  });

  it('leaves every other catalogue file byte-identical', () => {
    for (const name of ['fleet.yaml', 'stock.yaml', 'api.yaml'])
      expect(readFileSync(join(work, 'catalogue', name), 'utf8')).toBe(readFileSync(join(root, 'catalogue', name), 'utf8'));
  });
});

/**
 * The suite proves a scope by records outside it, and asks for one where the ERP has none ("archive
 * a record"), as an operator would on a live Odoo: one record of each scaffolded model the scaffold
 * scoped to active records is archived, where the demo data has none archived.
 */
function archiveOneRecordOfEachScopedModel(dbPath: string): void {
  const db = new DatabaseSync(dbPath);
  try {
    for (const resource of RESOURCES.filter((r) => r.path.startsWith('scaffolded/') && r.scope.some((t) => t.erp === 'active'))) {
      const table = `"${resource.model.replace(/\./g, '_')}"`;
      const archived = db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE "active" = 0`).get() as { n: number };
      if (archived.n === 0) db.prepare(`UPDATE ${table} SET "active" = 0 WHERE "id" = (SELECT MAX("id") FROM ${table})`).run();
    }
  } finally {
    db.close();
  }
}

async function sandboxWithScaffoldedGateway(): Promise<LiveTarget> {
  const stack = await startStack({ version: 19 });
  archiveOneRecordOfEachScopedModel(stack.dbPath);
  const settings: LiveErpSettings = {
    url: stack.sandbox.url,
    database: stack.sandbox.database,
    login: stack.keys.logins.api,
    key: stack.keys.valid,
    forbiddenKey: stack.keys.forbidden,
    expiredKey: stack.keys.expired,
    // The API account itself has no read right on odometer readings: its scaffolded resource answers 403.
    noReadKey: stack.keys.valid,
    noReadResource: UNREADABLE_MODEL,
    unreadable: [{ resource: 'fleet/vehicles', field: 'odometer', model: 'fleet.vehicle.odometer' }],
  };
  const target = await startLiveTarget(settings, 'json2');
  const rights = sandboxRightsSwitch(stack.dbPath, { login: settings.login, key: settings.key }, RIGHTS.group, RIGHTS.resource);
  return {
    ...target,
    rights,
    close: async () => {
      rights.close();
      await target.close();
      await stack.close();
    },
  };
}

/** The rights-restored check on the API account and the group that gives it its read rights. */
const RIGHTS = { login: 'gateway-api', key: 'given by the sandbox stack', group: 'ops_api.group_data_reader', resource: 'fleet/vehicles' };

describeLiveSuite(
  'the live suite on the scaffolded resources (sandbox as Odoo 19 over JSON-2)',
  sandboxWithScaffoldedGateway,
  livePlan(
    {
      forbiddenKey: 'given',
      expiredKey: 'given',
      noReadKey: 'given',
      noReadResource: UNREADABLE_MODEL,
      unreadable: [{ resource: 'fleet/vehicles', field: 'odometer', model: 'fleet.vehicle.odometer' }],
      rights: RIGHTS,
      adminLogin: 'given',
      adminKey: 'given',
    },
    19,
  ),
  prepared.resources.filter((path) => path !== UNREADABLE_MODEL),
);
