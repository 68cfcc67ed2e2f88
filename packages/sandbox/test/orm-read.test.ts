/**
 * `read` and `search_read` through `Orm.call`: the value encoding of every field type (reference
 * 8.2), ids order, missing and archived records, `load`, field lists, limits and errors.
 */
import { ADMIN_UID, createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;

beforeAll(() => {
  set = createSandboxSet((sql) => {
    sql(`UPDATE res_partner SET email = '', phone = NULL, is_company = NULL, country_id = NULL, active = 1 WHERE id = 1`);
    sql(`UPDATE fleet_vehicle SET seats = NULL, fuel_type = NULL, driver_id = NULL, acquisition_date = NULL, active = 0 WHERE id = 2`);
    sql(`UPDATE fleet_vehicle_log_services SET amount = 10.005, notes = 'Première révision' WHERE id = 1`);
    sql(`UPDATE fleet_location SET latitude = 14.12345649 WHERE id = 1`);
    sql(`UPDATE approval_product_line SET analytic_distribution = '{"1": 60.0, "2": 40.0}' WHERE id = 1`);
    sql(`UPDATE approval_product_line SET analytic_distribution = NULL WHERE id = 2`);
    sql(`INSERT INTO it_ticket_user_ids_rel (a, b) VALUES (1, 1), (1, 2)`);
  });
  for (const version of [17, 18, 19] as const) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

const V = [17, 18, 19] as const;

function read(version: OdooVersion, model: string, ids: number[], fields?: unknown, named: Record<string, unknown> = {}, context: Record<string, unknown> = {}) {
  return boxes[version].call(model, 'read', fields === undefined ? [] : [fields], named, { ids, context }) as Record<string, unknown>[];
}

describe('value encoding (reference 8.2)', () => {
  for (const version of V) {
    test(`${version} scalars, set and empty`, () => {
      const [partner] = read(version, 'res.partner', [1], ['email', 'phone', 'is_company', 'country_id', 'name']);
      expect(partner).toEqual({ id: 1, email: '', phone: false, is_company: false, country_id: false, name: expect.any(String) });
      const [vehicle] = read(version, 'fleet.vehicle', [2], ['seats', 'fuel_type', 'driver_id', 'acquisition_date', 'active', 'model_id', 'license_plate']);
      expect(vehicle).toMatchObject({ id: 2, seats: 0, fuel_type: false, driver_id: false, acquisition_date: false, active: false });
      const model = boxes[19].sql<{ model_id: number; name: string }>(
        `SELECT v.model_id, b.name || '/' || m.name AS name FROM fleet_vehicle v JOIN fleet_vehicle_model m ON m.id = v.model_id JOIN fleet_vehicle_model_brand b ON b.id = m.brand_id WHERE v.id = 2`,
      )[0]!;
      expect(vehicle!['model_id']).toEqual([model.model_id, model.name]);
    });

    test(`${version} numbers rounded to their digits, text, html, dates, datetimes, selection`, () => {
      const [service] = read(version, 'fleet.vehicle.log.services', [1], ['amount', 'notes', 'date', 'state', 'create_date']);
      expect(service).toMatchObject({ amount: 10.01, notes: 'Première révision', state: expect.stringMatching(/^(new|running|done|cancelled)$/) });
      expect(service!['date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(service!['create_date']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(read(version, 'fleet.location', [1], ['latitude'])[0]!['latitude']).toBe(14.123456);
      const [request] = read(version, 'approval.request', [1], ['reason']);
      expect(request!['reason'] === false || String(request!['reason']).startsWith('<p>')).toBe(true);
      const [reservation] = read(version, 'fleet.reservation', [1], ['start']);
      expect(reservation!['start']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    test(`${version} json: parsed object, or false`, () => {
      const lines = read(version, 'approval.product.line', [1, 2], ['analytic_distribution']);
      expect(lines).toEqual([
        { id: 1, analytic_distribution: { '1': 60, '2': 40 } },
        { id: 2, analytic_distribution: false },
      ]);
    });

    // A vehicle's display name is Odoo's brand/model/plate, a model's brand/model.
    test(`${version} many2one: [id, display name] or a bare id with load=None`, () => {
      const [vehicle] = read(version, 'fleet.vehicle', [1], ['model_id', 'display_name', 'create_uid']);
      const row = boxes[19].sql<{ model_id: number; brand: string; name: string; plate: string }>(
        'SELECT v.model_id, b.name AS brand, m.name, v.license_plate AS plate FROM fleet_vehicle v JOIN fleet_vehicle_model m ON m.id = v.model_id JOIN fleet_vehicle_model_brand b ON b.id = m.brand_id WHERE v.id = 1',
      )[0]!;
      expect(vehicle).toEqual({
        id: 1,
        model_id: [row.model_id, `${row.brand}/${row.name}`],
        display_name: `${row.brand}/${row.name}/${row.plate}`,
        create_uid: [ADMIN_UID, 'Administrator'],
      });
      expect(read(version, 'fleet.vehicle', [1], ['model_id'], { load: null })).toEqual([{ id: 1, model_id: row.model_id }]);
      expect(read(version, 'it.consumable.move', [5], ['display_name'])).toEqual([{ id: 5, display_name: 'it.consumable.move,5' }]);
    });

    test(`${version} x2many: ids in the comodel's order, archived rows left out`, () => {
      const [ticket] = read(version, 'it.ticket', [1], ['user_ids']);
      const linked = boxes[19].sql<{ b: number }>('SELECT DISTINCT r.b FROM it_ticket_user_ids_rel r JOIN res_users u ON u.id = r.b WHERE r.a = 1 AND u.active = 1');
      expect([...(ticket!['user_ids'] as number[])].sort((a, b) => a - b)).toEqual(linked.map((r) => r.b).sort((a, b) => a - b));
      expect(ticket!['user_ids']).not.toContain(1);
      const events = boxes[19].sql<{ event_id: number }>('SELECT event_id FROM event_registration WHERE active = 0 LIMIT 1');
      const eventId = events[0]!.event_id;
      const [event] = read(version, 'event.event', [eventId], ['registration_ids']);
      const active = boxes[19].sql<{ id: number }>('SELECT id FROM event_registration WHERE event_id = ? AND active = 1 ORDER BY id DESC', eventId);
      expect(event!['registration_ids']).toEqual(active.map((r) => r.id));
      const all = read(version, 'event.event', [eventId], ['registration_ids'], {}, { active_test: false })[0]!['registration_ids'] as number[];
      expect(all.length).toBeGreaterThan(active.length);
    });
  }
});

describe('read', () => {
  for (const version of V) {
    test(`${version} keeps the ids order, drops missing ids, returns archived records`, () => {
      expect(read(version, 'fleet.vehicle', [3, 999999, 2, 1], ['id', 'license_plate']).map((r) => r['id'])).toEqual([3, 2, 1]);
      expect(read(version, 'fleet.vehicle', [3, 999999], []).map((r) => r['id'])).toEqual([3]);
      expect(read(version, 'fleet.vehicle', [], ['license_plate'])).toEqual([]);
    });

    // `_read_format` drops a record when reading a field raises MissingError; `record.id` never does.
    test(`${version} reading only id keeps missing ids and duplicates, as asked`, () => {
      expect(read(version, 'fleet.vehicle', [999999, 3, 3, 888888], ['id'])).toEqual([{ id: 999999 }, { id: 3 }, { id: 3 }, { id: 888888 }]);
      expect(read(version, 'fleet.vehicle', [999999], ['id', 'id'])).toEqual([{ id: 999999 }]);
      expect(read(version, 'fleet.vehicle', [999999], ['id', 'display_name'])).toEqual([]);
    });

    test(`${version} every field when fields is omitted, id first`, () => {
      const [partner] = read(version, 'res.partner', [1]);
      expect(Object.keys(partner!)[0]).toBe('id');
      expect(Object.keys(partner!)).toEqual(expect.arrayContaining(['name', 'email', 'display_name', 'create_date', 'write_uid']));
    });
  }

  test('unknown field, per version', () => {
    expect(boxes[17].error('res.partner', 'read', [['nope']], {}, { ids: [1] }).message).toBe("Invalid field 'nope' on model 'res.partner'");
    expect(boxes[19].error('res.partner', 'read', [['nope']], {}, { ids: [1] }).message).toBe("Invalid field 'nope' on 'res.partner'");
    expect(boxes[19].error('res.partner', 'search_read', [[]], { fields: ['country_id.name'] }).message).toBe("Invalid field 'country_id.name' on 'res.partner'");
    expect(boxes[19].error('res.partner', 'read', [['nope']], {}, { ids: [] }).exceptionName).toBe('builtins.ValueError');
    expect(read(17, 'res.partner', [], ['nope'])).toEqual([]);
  });
});

describe('search_read', () => {
  for (const version of V) {
    test(`${version} domain, fields, order, limit and offset`, () => {
      const all = boxes[version].call('fleet.vehicle', 'search_read', [[['seats', '>', 2]], ['license_plate']], { order: 'id' }) as { id: number }[];
      const page = boxes[version].call('fleet.vehicle', 'search_read', [], { domain: [['seats', '>', 2]], fields: ['license_plate'], order: 'id', limit: 5, offset: 3 });
      expect(page).toEqual(all.slice(3, 8));
      expect(Object.keys(all[0]!)).toEqual(['id', 'license_plate']);
      expect(boxes[version].call('fleet.vehicle', 'search_read', [false, ['id']], { limit: false, order: 'id' })).toEqual(
        (boxes[version].call('fleet.vehicle', 'search', [[]], { order: 'id' }) as number[]).map((id) => ({ id })),
      );
    });

    test(`${version} load='' gives bare ids; an unknown read keyword is a TypeError`, () => {
      const [row] = boxes[version].call('fleet.vehicle', 'search_read', [[['id', '=', 1]], ['model_id']], { load: '' }) as Record<string, unknown>[];
      expect(typeof row!['model_id']).toBe('number');
      const error = boxes[version].error('fleet.vehicle', 'search_read', [[]], { bogus: 1 });
      expect([error.exceptionName, error.message]).toEqual(['builtins.TypeError', "BaseModel._read_format() got an unexpected keyword argument 'bogus'"]);
    });

    test(`${version} search_count, with and without limit`, () => {
      const active = boxes[19].sql<{ n: number }>('SELECT COUNT(*) AS n FROM fleet_vehicle WHERE active = 1')[0]!.n;
      expect(boxes[version].call('fleet.vehicle', 'search_count', [[]])).toBe(active);
      expect(boxes[version].call('fleet.vehicle', 'search_count', [[]], { limit: 7 })).toBe(7);
      expect(boxes[version].call('fleet.vehicle', 'search_count', [[]], {}, { context: { active_test: false } })).toBeGreaterThan(active);
    });
  }
});

describe('web_search_read (module web, reference 8.3)', () => {
  const order = 'write_date desc, id desc';
  for (const version of V) {
    test(`${version} the records search_read gives for a flat specification, and length: the count when the page is full, the page's length when not`, () => {
      const box = boxes[version];
      const context = { active_test: false };
      const all = box.call('fleet.vehicle', 'search_count', [[]], {}, { context }) as number;
      const page = (limit: number) => box.call('fleet.vehicle', 'web_search_read', [[], { write_date: {}, model_id: {} }], { order, limit }, { context });
      const read = (limit: number) => box.call('fleet.vehicle', 'search_read', [[], ['write_date', 'model_id']], { order, limit, load: '' }, { context });
      expect(page(3)).toEqual({ length: all, records: read(3) });
      expect(page(all + 5)).toEqual({ length: all, records: read(all + 5) });
      expect(box.call('fleet.vehicle', 'web_search_read', [[['id', '=', -1]], { write_date: {} }], {})).toEqual({ length: 0, records: [] });
      // count_limit reached: the page's own length; force_search_count: the count, limited.
      expect((box.call('fleet.vehicle', 'web_search_read', [[], {}], { limit: 3, count_limit: 3 }, { context }) as { length: number }).length).toBe(3);
      expect((box.call('fleet.vehicle', 'web_search_read', [[], {}], { limit: 3, offset: 1, count_limit: 2 }, { context }) as { length: number }).length).toBe(4);
    });

    test(`${version} a nested specification is refused as not supported by the sandbox`, () => {
      const error = boxes[version].error('fleet.vehicle', 'web_search_read', [[], { model_id: { fields: { display_name: {} } } }], {});
      expect(error.message).toContain('flat specifications only');
    });
  }
});
