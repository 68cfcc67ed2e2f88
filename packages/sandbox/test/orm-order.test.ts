/**
 * Order strings through `Orm.call` (reference section 10): grammar, several keys, directions,
 * NULL placement as PostgreSQL's, many2one ordered by the comodel's `_order`, booleans, errors.
 */
import { createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;

beforeAll(() => {
  set = createSandboxSet();
  for (const version of [17, 18, 19] as const) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

type Vehicle = { id: number; license_plate: string | null; seats: number | null; model_id: number; driver_id: number | null; active: number };

const V = [17, 18, 19] as const;

function ordered(version: OdooVersion, order: string | undefined, model = 'fleet.vehicle', domain: unknown[] = []): number[] {
  return boxes[version].call(model, 'search', [domain], order === undefined ? {} : { order }) as number[];
}

function vehicles(): Vehicle[] {
  return boxes[19].sql<Vehicle>('SELECT id, license_plate, seats, model_id, driver_id, active FROM fleet_vehicle WHERE active = 1');
}

/** PostgreSQL's comparison: NULL after every value ascending (so before them descending). */
function pg<T>(get: (v: T) => string | number | null, direction: 'asc' | 'desc' = 'asc', nulls?: 'first' | 'last') {
  const nullsFirst = nulls ? nulls === 'first' : direction === 'desc';
  return (a: T, b: T): number => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return x === y ? 0 : (x === null) === nullsFirst ? -1 : 1;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return direction === 'asc' ? c : -c;
  };
}

function by<T>(...comparators: ((a: T, b: T) => number)[]) {
  return (a: T, b: T) => comparators.reduce((r, c) => r || c(a, b), 0);
}

describe('order', () => {
  for (const version of V) {
    test(`${version} several keys, directions and NULL placement`, () => {
      const rows = vehicles();
      const expected = (compare: (a: Vehicle, b: Vehicle) => number) => [...rows].sort(compare).map((v) => v.id);
      expect(ordered(version, 'seats desc, id')).toEqual(
        expected(
          by(
            pg((v) => v.seats, 'desc'),
            pg((v) => v.id),
          ),
        ),
      );
      expect(ordered(version, 'seats, id desc')).toEqual(
        expected(
          by(
            pg((v) => v.seats),
            pg((v) => v.id, 'desc'),
          ),
        ),
      );
      expect(ordered(version, 'seats asc nulls first, id')).toEqual(
        expected(
          by(
            pg((v) => v.seats, 'asc', 'first'),
            pg((v) => v.id),
          ),
        ),
      );
      expect(ordered(version, 'seats DESC NULLS LAST,id ASC')).toEqual(
        expected(
          by(
            pg((v) => v.seats, 'desc', 'last'),
            pg((v) => v.id),
          ),
        ),
      );
      expect(ordered(version, '  license_plate  ,  id  ')).toEqual(
        expected(
          by(
            pg((v) => v.license_plate),
            pg((v) => v.id),
          ),
        ),
      );
    });

    test(`${version} a many2one is ordered by its comodel's _order`, () => {
      const names = new Map(boxes[19].sql<{ id: number; name: string }>('SELECT id, name FROM fleet_vehicle_model').map((m) => [m.id, m.name]));
      const rows = vehicles();
      const expected = (direction: 'asc' | 'desc') =>
        [...rows]
          .sort(
            by(
              pg((v) => names.get(v.model_id) ?? null, direction),
              pg((v) => v.id),
            ),
          )
          .map((v) => v.id);
      expect(ordered(version, 'model_id, id')).toEqual(expected('asc'));
      expect(ordered(version, 'model_id desc, id')).toEqual(expected('desc'));
      // res.partner's _order is "complete_name ASC, id DESC", reversed as a whole for desc
      const partners = new Map(boxes[19].sql<{ id: number; complete_name: string | null }>('SELECT id, complete_name FROM res_partner').map((p) => [p.id, p.complete_name]));
      const drivers = [...rows].sort(
        by(
          pg((v) => (v.driver_id === null ? null : (partners.get(v.driver_id) ?? null)), 'desc'),
          pg((v) => v.driver_id, 'asc'),
          pg((v) => v.id),
        ),
      );
      expect(ordered(version, 'driver_id desc, id')).toEqual(drivers.map((v) => v.id));
    });

    test(`${version} default order is the model's _order, without an id tie-breaker`, () => {
      const rows = vehicles();
      const acquisitions = new Map(
        boxes[19].sql<{ id: number; acquisition_date: string | null }>('SELECT id, acquisition_date FROM fleet_vehicle').map((v) => [v.id, v.acquisition_date]),
      );
      const result = ordered(version, undefined);
      const keys = result.map((id) => [rows.find((v) => v.id === id)!.license_plate, acquisitions.get(id)]);
      const sorted = [...keys].sort(
        by(
          pg((k) => k[0] ?? null),
          pg((k) => k[1] ?? null),
        ),
      );
      expect(keys).toEqual(sorted);
    });

    test(`${version} booleans order as COALESCE(col, false)`, () => {
      const partners = boxes[19].sql<{ id: number; is_company: number | null }>('SELECT id, is_company FROM res_partner WHERE active = 1');
      expect(partners.some((p) => p.is_company === null)).toBe(true);
      const expected = [...partners]
        .sort(
          by(
            pg((p) => p.is_company ?? 0, 'desc'),
            pg((p) => p.id),
          ),
        )
        .map((p) => p.id);
      expect(ordered(version, 'is_company desc, id', 'res.partner')).toEqual(expected);
    });
  }

  test('grammar errors are UserErrors with Odoo’s message', () => {
    for (const version of V) {
      const error = boxes[version].error('fleet.vehicle', 'search', [[]], { order: 'id desc;drop table x' });
      expect(error.exceptionName).toBe('odoo.exceptions.UserError');
      expect(error.message).toBe(
        'Invalid "order" specified (id desc;drop table x). A valid "order" specification is a comma-separated list of valid field names (optionally followed by asc/desc for the direction)',
      );
    }
    expect(boxes[19].error('fleet.vehicle', 'search', [[]], { order: '"name"' }).exceptionName).toBe('odoo.exceptions.UserError');
    // 17/18 accept quotes in the grammar, then find no such field
    expect(boxes[18].error('fleet.vehicle', 'search', [[]], { order: '"name"' }).message).toBe(`Invalid field '"name"' on model 'fleet.vehicle'`);
  });

  test('unknown and non-stored fields, per version', () => {
    for (const version of V) {
      const error = boxes[version].error('fleet.vehicle', 'search', [[]], { order: 'nope' });
      expect([error.exceptionName, error.message]).toEqual(['builtins.ValueError', "Invalid field 'nope' on model 'fleet.vehicle'"]);
    }
    expect(ordered(17, 'odometer desc, id')).toEqual(ordered(17, 'id'));
    expect(boxes[18].error('fleet.vehicle', 'search', [[]], { order: 'odometer' }).message).toBe('Cannot convert fleet.vehicle.odometer to SQL because it is not stored');
    expect(boxes[19].error('fleet.vehicle', 'search', [[]], { order: 'display_name' }).message).toBe('Cannot convert fleet.vehicle.display_name to SQL because it is not stored');
    expect(boxes[17].error('fleet.vehicle', 'search', [[]], { order: 'model_id.name' }).message).toBe("Order a property ('name') on a non-properties field ('model_id')");
    expect(ordered(19, 'model_id.id, id')).toEqual(
      [...vehicles()]
        .sort(
          by(
            pg((v) => v.model_id),
            pg((v) => v.id),
          ),
        )
        .map((v) => v.id),
    );
  });
});

describe('version-dependent _order and a many2one to the model itself', () => {
  let unitsSet: SandboxSet;
  const units = {} as Record<OdooVersion, Sandbox>;
  // uom 2 and 4 under 1, 3 under 2; equal sequences so the parent decides.
  const rows = [
    { id: 1, sequence: 5, parent: null, factor: 1 },
    { id: 2, sequence: 5, parent: 1, factor: 12 },
    { id: 3, sequence: 5, parent: 2, factor: 0.5 },
    { id: 4, sequence: 1, parent: 1, factor: 1000 },
    { id: 5, sequence: 5, parent: null, factor: 3 },
    { id: 6, sequence: 9, parent: 5, factor: 7 },
  ];
  beforeAll(() => {
    unitsSet = createSandboxSet((sql) => {
      for (const r of rows) sql('UPDATE uom_uom SET sequence = ?, relative_uom_id = ?, factor = ?, active = 1 WHERE id = ?', r.sequence, r.parent, r.factor, r.id);
    });
    for (const version of V) units[version] = unitsSet.open(version);
  });
  afterAll(() => unitsSet.cleanup());

  test("19: sequence, relative_uom_id (the parent's sequence and id, its own relative_uom_id skipped: already seen), id", () => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const parentSequence = (r: (typeof rows)[number]) => (r.parent === null ? null : byId.get(r.parent)!.sequence);
    const expected = [...rows]
      .sort(
        by(
          pg((r) => r.sequence),
          pg(parentSequence),
          pg((r) => r.parent),
          pg((r) => r.id),
        ),
      )
      .map((r) => r.id);
    expect(expected).toEqual([4, 2, 3, 1, 5, 6]);
    expect(units[19].call('uom.uom', 'search', [[]])).toEqual(expected);
    // Descending: the comodel's order reversed, no parent first (PostgreSQL's NULLs first).
    expect(units[19].call('uom.uom', 'search', [[]], { order: 'relative_uom_id desc, id' })).toEqual([1, 5, 6, 3, 2, 4]);
  });

  test('17/18: factor DESC, id', () => {
    const expected = [...rows]
      .sort(
        by(
          pg((r) => r.factor, 'desc'),
          pg((r) => r.id),
        ),
      )
      .map((r) => r.id);
    for (const version of [17, 18] as const) expect(units[version].call('uom.uom', 'search', [[]])).toEqual(expected);
  });

  test('17 drops a related field that is neither inherited nor stored from an order; 18/19 sort through it', () => {
    const services = (version: OdooVersion, order: string) => units[version].call('fleet.vehicle.log.services', 'search', [[]], { order, limit: 20 });
    expect(services(17, 'currency_id, id')).toEqual(services(17, 'id'));
    expect(services(19, 'currency_id desc, id')).toEqual(services(18, 'currency_id desc, id'));
    // An order line's currency: stored by 17 and 18, related only in 19; all three sort on it.
    const lines = (version: OdooVersion, order: string) => units[version].call('purchase.order.line', 'search', [[]], { order, limit: 20 });
    expect(lines(17, 'currency_id desc, id')).toEqual(lines(19, 'currency_id desc, id'));
    expect(lines(18, 'currency_id desc, id')).toEqual(lines(19, 'currency_id desc, id'));
    expect(units[17].call('res.users', 'search', [[]], { order: 'name desc, id' })).toEqual(units[19].call('res.users', 'search', [[]], { order: 'name desc, id' }));
  });
});
