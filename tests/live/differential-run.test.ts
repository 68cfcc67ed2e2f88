/**
 * The whole differential check against two sandboxes: a seeded one stands in for the live ERP,
 * the check mirrors it into its own sandbox and must find no difference (so the tool and the
 * mirror cannot rot without a live Odoo at hand). It also proves that a difference is reported.
 */
import { DatabaseSync } from 'node:sqlite';
import { runDifferential } from '../../live/differential/run';
import type { LiveErpSettings } from '../../live/settings';
import type { RegistryDrift } from '@ops-data-gateway/sandbox/orm/registry-drift';
import { createDriftDatabase } from '../drift/support/drift-sandbox';

// Each run mirrors a few models and sends them the whole series (grouped reads included): about
// 30 s alone, more on a machine shared with other suites.
jest.setTimeout(180_000);

// A few models keep the run to seconds; the series per model is the same for all of them.
const MODELS = { 19: ['res.company', 'res.currency', 'res.country', 'res.partner', 'res.users'], 17: ['uom.uom', 'res.users'] };

/** A seeded sandbox standing in for the live ERP, with the settings the check takes for it. */
interface StandIn {
  readonly settings: LiveErpSettings;
  close(): Promise<void>;
}

async function startStandIn(version: 17 | 18 | 19, drift?: RegistryDrift, prepare?: (db: DatabaseSync) => void): Promise<StandIn> {
  const database = createDriftDatabase();
  if (prepare) {
    const db = new DatabaseSync(database.dbPath);
    prepare(db);
    db.close();
  }
  const erp = await database.serve(drift, version);
  const { keys } = database;
  return {
    settings: {
      url: erp.url,
      database: erp.database,
      login: keys.logins.api,
      key: keys.valid,
      forbiddenKey: keys.forbidden,
      expiredKey: keys.expired,
      noReadKey: keys.no_read.key,
      adminLogin: keys.logins.admin,
      adminKey: keys.forbidden,
      unreadable: [],
    },
    close: () => database.close(),
  };
}

describe.each([19, 17] as const)('erp-diff against a sandbox imitating Odoo %i', (version) => {
  let standIn: StandIn;

  beforeAll(async () => {
    standIn = await startStandIn(version);
  });

  afterAll(() => standIn.close());

  it('finds no difference between the ERP and its mirror', async () => {
    const report = await runDifferential({ live: standIn.settings, models: MODELS[version], concurrency: 8 });
    expect(report.liveVersion).toBe(`${version}.0`);
    expect(report.transports).toEqual(version === 19 ? ['json2', 'jsonrpc', 'xmlrpc'] : ['jsonrpc', 'xmlrpc']);
    expect(report.calls).toBeGreaterThan(200);
    expect(report.differences).toEqual([]);
  });
});

describe('erp-diff against an ERP without one of the sandbox selection values', () => {
  let standIn: StandIn;

  beforeAll(async () => {
    standIn = await startStandIn(19, { removeSelectionValues: ['stock.picking.type.code=internal'] });
  });

  afterAll(() => standIn.close());

  it('notes the value, as it notes absent fields, and finds no difference', async () => {
    const models = [...MODELS[19], 'stock.location', 'stock.warehouse', 'stock.picking.type'];
    const report = await runDifferential({ live: standIn.settings, models, concurrency: 8 });
    expect(report.notes).toContain('stock.picking.type: sandbox selection values not compared: code internal (absent)');
    expect(report.differences).toEqual([]);
  });
});

// product.attribute has `active` from 18 on: against 17 the mirror has no value for the column.
describe('erp-diff against an ERP whose model has no active field', () => {
  let standIn: StandIn;

  beforeAll(async () => {
    standIn = await startStandIn(17, { removeFields: ['product.attribute.active'] });
  });

  afterAll(() => standIn.close());

  it('mirrors its records as active ones', async () => {
    const report = await runDifferential({ live: standIn.settings, models: ['product.attribute', 'res.users'], concurrency: 8 });
    expect(report.calls).toBeGreaterThan(100);
    expect(report.differences).toEqual([]);
  });
});

// Odoo keeps fractions of a second in datetime columns and reads cut them; 17/18 compare a domain's
// value with the stored one exactly. The stand-in stores fractions on every transfer's scheduled date
// and on every other one's write date: the mirror must learn which rows have one, or `= t`, `<= t`,
// `> t` and `!= t` on the value read back answer otherwise than the ERP.
describe('erp-diff against an Odoo 18 keeping fractions of a second', () => {
  let standIn: StandIn;

  beforeAll(async () => {
    standIn = await startStandIn(18, undefined, (db) => {
      // Only where the value has none yet: the sandbox itself stores fractions where Odoo does (scheduled dates).
      db.exec(`UPDATE "stock_picking" SET "scheduled_date" = "scheduled_date" || '.250000' WHERE "scheduled_date" NOT LIKE '%.%'`);
      db.exec(`UPDATE "stock_picking" SET "write_date" = "write_date" || '.000001' WHERE "id" % 2 = 0 AND "write_date" NOT LIKE '%.%'`);
    });
  });

  afterAll(() => standIn.close());

  it('mirrors which values have a fraction, and finds no difference', async () => {
    const report = await runDifferential({ live: standIn.settings, models: ['stock.picking', 'res.users'], concurrency: 8 });
    expect(report.liveVersion).toBe('18.0');
    expect(report.calls).toBeGreaterThan(100);
    expect(report.differences).toEqual([]);
  });
});
