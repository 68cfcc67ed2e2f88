/**
 * Domains through `Orm.call`: every operator, the NULL rules of each version (reference 9.2),
 * paths, name searches, hierarchies, active_test and the error messages. Expected ids are
 * computed independently, in JavaScript, from the rows read with plain SQL.
 */
import { ADMIN_UID, NO_FLEET_UID, GATEWAY_UID, createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

type PartnerRow = { id: number; name: string; email: string | null; phone: string | null; is_company: number | null; active: number | null; country_id: number | null };
type VehicleRow = { id: number; seats: number | null; active: number | null };

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;

beforeAll(() => {
  set = createSandboxSet((sql) => {
    sql(`UPDATE res_partner SET email = '' WHERE id = 1`);
    sql(`UPDATE res_partner SET email = NULL WHERE id = 2`);
    sql(`UPDATE res_partner SET email = 'ÉLODIE.BÉNARD@example.test', name = 'Élodie Bénard', complete_name = 'Élodie Bénard' WHERE id = 3`);
    sql(`UPDATE res_partner SET name = 'Zoë 100% Pure_Test', complete_name = 'Zoë 100% Pure_Test' WHERE id = 4`);
    sql(`UPDATE res_partner SET name = 'PureXTest 100 ans', complete_name = 'PureXTest 100 ans' WHERE id = 5`);
    sql(`UPDATE res_partner SET is_company = NULL WHERE id = 6`);
    sql(`UPDATE res_partner SET active = 1 WHERE id IN (1, 2, 3, 4, 5, 6)`);
    sql(`UPDATE fleet_vehicle SET seats = NULL, active = 1 WHERE id = 1`);
    sql(`UPDATE fleet_vehicle SET seats = 0, active = 1 WHERE id = 2`);
    sql(`UPDATE fleet_vehicle SET seats = 5, active = 1 WHERE id = 3`);
    sql(`UPDATE purchase_order SET amount_total = NULL WHERE id = 1`);
    sql(`UPDATE purchase_order SET amount_total = 0 WHERE id = 2`);
  });
  for (const version of [17, 18, 19] as const) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

function search(version: OdooVersion, model: string, domain: unknown[], options: { uid?: number; context?: Record<string, unknown> } = {}): number[] {
  return boxes[version].call(model, 'search', [domain], { order: 'id' }, { uid: options.uid ?? ADMIN_UID, context: options.context ?? {} }) as number[];
}

function partners(filter: (p: PartnerRow) => boolean, all = false): number[] {
  const rows = boxes[19].sql<PartnerRow>('SELECT id, name, email, phone, is_company, active, country_id FROM res_partner ORDER BY id');
  return rows.filter((p) => (all || p.active === 1) && filter(p)).map((p) => p.id);
}

function vehicles(filter: (v: VehicleRow) => boolean): number[] {
  const rows = boxes[19].sql<VehicleRow>('SELECT id, seats, active FROM fleet_vehicle ORDER BY id');
  return rows.filter((v) => v.active === 1 && filter(v)).map((v) => v.id);
}

const V = [17, 18, 19] as const;

describe('NULL versus empty values (reference 9.2)', () => {
  const notSet = (e: string | null) => e === null;
  const emptyOrNull = (e: string | null) => e === null || e === '';
  const cases: [string, unknown[], Record<OdooVersion, (p: PartnerRow) => boolean>][] = [
    ['= false', ['email', '=', false], { 17: (p) => notSet(p.email), 18: (p) => emptyOrNull(p.email), 19: (p) => emptyOrNull(p.email) }],
    ['!= false', ['email', '!=', false], { 17: (p) => !notSet(p.email), 18: (p) => !emptyOrNull(p.email), 19: (p) => !emptyOrNull(p.email) }],
    ["= ''", ['email', '=', ''], { 17: (p) => p.email === '', 18: (p) => emptyOrNull(p.email), 19: (p) => emptyOrNull(p.email) }],
    ["ilike ''", ['email', 'ilike', ''], { 17: () => true, 18: () => true, 19: () => true }],
    ["not ilike ''", ['email', 'not ilike', ''], { 17: (p) => notSet(p.email), 18: () => false, 19: () => false }],
    ["=like ''", ['email', '=like', ''], { 17: (p) => p.email === '', 18: (p) => emptyOrNull(p.email), 19: (p) => emptyOrNull(p.email) }],
    [
      "< 'b' (19 counts NULL as '')",
      ['email', '<', 'b'],
      { 17: (p) => p.email !== null && p.email < 'b', 18: (p) => p.email !== null && p.email < 'b', 19: (p) => (p.email ?? '') < 'b' },
    ],
    ['!= value keeps NULL', ['email', '!=', 'nobody@example.test'], { 17: () => true, 18: () => true, 19: () => true }],
    [
      'not ilike keeps NULL',
      ['email', 'not ilike', 'example'],
      {
        17: (p) => p.email === null || !p.email.toLowerCase().includes('example'),
        18: (p) => p.email === null || !p.email.toLowerCase().includes('example'),
        19: (p) => p.email === null || !p.email.toLowerCase().includes('example'),
      },
    ],
    ['in [false, value]', ['email', 'in', [false, 'nobody@example.test']], { 17: (p) => notSet(p.email), 18: (p) => emptyOrNull(p.email), 19: (p) => emptyOrNull(p.email) }],
    ['not in [value]', ['email', 'not in', ['nobody@example.test']], { 17: () => true, 18: () => true, 19: () => true }],
    ['not in [false]', ['email', 'not in', [false]], { 17: (p) => !notSet(p.email), 18: (p) => !emptyOrNull(p.email), 19: (p) => !emptyOrNull(p.email) }],
  ];
  for (const [title, leaf, expected] of cases) {
    for (const version of V) {
      test(`${version} char ${title}`, () => {
        expect(search(version, 'res.partner', [leaf])).toEqual(partners(expected[version]));
      });
    }
  }

  const numbers: [string, unknown[], Record<OdooVersion, (v: VehicleRow) => boolean>][] = [
    ['= false', ['seats', '=', false], { 17: (v) => v.seats === null, 18: (v) => !v.seats, 19: (v) => !v.seats }],
    ['= 0', ['seats', '=', 0], { 17: (v) => v.seats === 0, 18: (v) => !v.seats, 19: (v) => !v.seats }],
    ['!= 0', ['seats', '!=', 0], { 17: (v) => v.seats !== null && v.seats !== 0, 18: (v) => !!v.seats, 19: (v) => !!v.seats }],
    ['!= 5', ['seats', '!=', 5], { 17: (v) => v.seats !== 5, 18: (v) => v.seats !== 5, 19: (v) => v.seats !== 5 }],
    ['< 5', ['seats', '<', 5], { 17: (v) => v.seats !== null && v.seats < 5, 18: (v) => (v.seats ?? 0) < 5, 19: (v) => (v.seats ?? 0) < 5 }],
    ['> -1', ['seats', '>', -1], { 17: (v) => v.seats !== null, 18: () => true, 19: () => true }],
    ['>= 1', ['seats', '>=', 1], { 17: (v) => (v.seats ?? 0) >= 1, 18: (v) => (v.seats ?? 0) >= 1, 19: (v) => (v.seats ?? 0) >= 1 }],
    ['! (= 5) keeps NULL', ['!', ['seats', '=', 5]], { 17: (v) => v.seats !== 5, 18: (v) => v.seats !== 5, 19: (v) => v.seats !== 5 }],
    ['! (< 5)', ['!', ['seats', '<', 5]], { 17: (v) => v.seats !== null && v.seats >= 5, 18: (v) => v.seats !== null && v.seats >= 5, 19: (v) => (v.seats ?? 0) >= 5 }],
  ];
  for (const [title, leaf, expected] of numbers) {
    for (const version of V) {
      test(`${version} integer ${title}`, () => {
        const domain = leaf[0] === '!' ? leaf : [leaf];
        expect(search(version, 'fleet.vehicle', domain)).toEqual(vehicles(expected[version]));
      });
    }
  }

  for (const version of V) {
    test(`${version} boolean = false and != true match NULL`, () => {
      const falsy = partners((p) => !p.is_company);
      expect(search(version, 'res.partner', [['is_company', '=', false]])).toEqual(falsy);
      expect(search(version, 'res.partner', [['is_company', '!=', true]])).toEqual(falsy);
      expect(search(version, 'res.partner', [['is_company', '=', true]])).toEqual(partners((p) => p.is_company === 1));
      expect(search(version, 'res.partner', [['is_company', 'in', [true, false]]])).toEqual(partners(() => true));
      expect(search(version, 'res.partner', [['is_company', 'not in', [true]]])).toEqual(falsy);
    });
  }
});

describe('NULL monetary on 19 (measured on Odoo 19.0 with purchase_order.amount_total NULL)', () => {
  type OrderRow = { id: number; amount_total: number | null };
  const orders = (filter: (o: OrderRow) => boolean) =>
    boxes[19]
      .sql<OrderRow>('SELECT id, amount_total FROM purchase_order ORDER BY id')
      .filter(filter)
      .map((o) => o.id);

  test('= 0 and in [0] leave NULL out: Monetary compares str(0) with str(0.0)', () => {
    expect(search(19, 'purchase.order', [['amount_total', '=', 0]])).toEqual(orders((o) => o.amount_total === 0));
    expect(search(19, 'purchase.order', [['amount_total', 'in', [0]]])).toEqual(orders((o) => o.amount_total === 0));
    expect(search(19, 'purchase.order', [['amount_total', '=', 0]])).not.toContain(1);
  });

  test('!= 0 keeps NULL, and inequalities 0 satisfies take NULL as 0', () => {
    expect(search(19, 'purchase.order', [['amount_total', '!=', 0]])).toEqual(orders((o) => o.amount_total !== 0));
    expect(search(19, 'purchase.order', [['amount_total', '<=', 0]])).toEqual(orders((o) => (o.amount_total ?? 0) <= 0));
    expect(search(19, 'purchase.order', [['amount_total', '<', 1]])).toEqual(orders((o) => (o.amount_total ?? 0) < 1));
  });

  test('= false matches NULL, and a float zero given as text stands for NULL', () => {
    expect(search(19, 'purchase.order', [['amount_total', '=', false]])).toEqual(orders((o) => !o.amount_total));
    expect(search(19, 'purchase.order', [['amount_total', 'in', ['0.0']]])).toEqual(orders((o) => !o.amount_total));
  });
});

describe('a sized Char (res.currency.name, size 3)', () => {
  for (const version of V) {
    test(`${version} compares the value cut to the size, so a NUL past it never reaches PostgreSQL`, () => {
      const eur = boxes[version].sql<{ id: number }>("SELECT id FROM res_currency WHERE name = 'EUR' ORDER BY id").map((r) => r.id);
      expect(eur.length).toBeGreaterThan(0);
      const all = { context: { active_test: false } };
      expect(search(version, 'res.currency', [['name', '=', 'EURO']], all)).toEqual(eur);
      expect(search(version, 'res.currency', [['name', 'in', ['EURO', 'ZZZZ']]], all)).toEqual(eur);
      expect(search(version, 'res.currency', [['name', '=', 'nul\u0000byte']], all)).toEqual([]);
    });
  }
});

describe('operators', () => {
  for (const version of V) {
    test(`${version} comparison and membership operators`, () => {
      expect(search(version, 'fleet.vehicle', [['seats', '>', 4]])).toEqual(vehicles((v) => (v.seats ?? 0) > 4));
      expect(
        search(version, 'fleet.vehicle', [
          ['seats', '<=', 4],
          ['seats', '>=', 2],
        ]),
      ).toEqual(vehicles((v) => v.seats !== null && v.seats >= 2 && v.seats <= 4));
      expect(search(version, 'fleet.vehicle', [['seats', 'in', [2, 7]]])).toEqual(vehicles((v) => v.seats === 2 || v.seats === 7));
      expect(search(version, 'fleet.vehicle', [['seats', 'not in', [2, 7]]])).toEqual(vehicles((v) => v.seats !== 2 && v.seats !== 7));
      expect(search(version, 'fleet.vehicle', [['seats', '<>', 5]])).toEqual(vehicles((v) => v.seats !== 5));
      expect(search(version, 'fleet.vehicle', [['id', 'in', []]])).toEqual([]);
      expect(search(version, 'fleet.vehicle', [['id', 'not in', []]])).toEqual(vehicles(() => true));
    });

    test(`${version} like family: wildcards kept, backslash escapes, case rules`, () => {
      const name = (f: (n: string) => boolean) => partners((p) => f(p.name));
      expect(search(version, 'res.partner', [['name', 'like', '100%']])).toEqual(name((n) => n.includes('100')));
      expect(search(version, 'res.partner', [['name', 'like', 'Pure_Test']])).toEqual(name((n) => /Pure.Test/.test(n)));
      expect(search(version, 'res.partner', [['name', 'like', '100\\%']])).toEqual(name((n) => n.includes('100%')));
      expect(search(version, 'res.partner', [['name', 'like', 'zoë']])).toEqual([]);
      expect(search(version, 'res.partner', [['name', 'ilike', 'zoË']])).toEqual(name((n) => n.toLowerCase().includes('zoë')));
      expect(search(version, 'res.partner', [['email', 'ilike', 'élodie.bénard']])).toEqual(partners((p) => (p.email ?? '').toLowerCase().includes('élodie.bénard')));
      expect(search(version, 'res.partner', [['name', '=like', 'Zoë%']])).toEqual(name((n) => n.startsWith('Zoë')));
      expect(search(version, 'res.partner', [['name', '=ilike', 'élodie bénard']])).toEqual(name((n) => n.toLowerCase() === 'élodie bénard'));
      expect(search(version, 'res.partner', [['name', 'not like', 'e']])).toEqual(name((n) => !n.includes('e')));
    });

    test(`${version} =? ignores an unset value`, () => {
      expect(search(version, 'fleet.vehicle', [['seats', '=?', false]])).toEqual(vehicles(() => true));
      expect(search(version, 'fleet.vehicle', [['seats', '=?', 5]])).toEqual(vehicles((v) => v.seats === 5));
    });

    test(`${version} constants, connectives and implicit AND`, () => {
      expect(search(version, 'fleet.vehicle', [[1, '=', 1]])).toEqual(vehicles(() => true));
      expect(search(version, 'fleet.vehicle', [[0, '=', 1]])).toEqual([]);
      expect(search(version, 'fleet.vehicle', ['|', ['seats', '=', 5], ['seats', '=', 2]])).toEqual(vehicles((v) => v.seats === 5 || v.seats === 2));
      expect(search(version, 'fleet.vehicle', ['!', '|', ['seats', '=', 5], ['seats', '=', 2]])).toEqual(vehicles((v) => v.seats !== 5 && v.seats !== 2));
      expect(
        search(version, 'fleet.vehicle', [
          ['seats', '>=', 2],
          ['seats', '<=', 5],
        ]),
      ).toEqual(vehicles((v) => v.seats !== null && v.seats >= 2 && v.seats <= 5));
    });
  }

  test('19 adds not =like and not =ilike', () => {
    expect(search(19, 'res.partner', [['name', 'not =ilike', 'zoë%']])).toEqual(partners((p) => !p.name.toLowerCase().startsWith('zoë')));
    expect(search(19, 'res.partner', [['name', 'not =like', 'Zoë%']])).toEqual(partners((p) => !p.name.startsWith('Zoë')));
    expect(boxes[18].error('res.partner', 'search', [[['name', 'not =like', 'x']]]).message).toBe("Invalid leaf ('name', 'not =like', 'x')");
  });
});

describe('relations', () => {
  const countryCode = (id: number | null) => (id === null ? null : boxes[19].sql<{ code: string }>('SELECT code FROM res_country WHERE id = ?', id)[0]!.code);
  const countryName = (id: number | null) => (id === null ? null : boxes[19].sql<{ name: string }>('SELECT name FROM res_country WHERE id = ?', id)[0]!.name);

  for (const version of V) {
    test(`${version} dotted paths through many2one`, () => {
      expect(search(version, 'res.partner', [['country_id.code', '=', 'SN']])).toEqual(partners((p) => countryCode(p.country_id) === 'SN'));
      // a path is an `any` on the comodel: partners without a country are not "not SN"
      expect(search(version, 'res.partner', [['country_id.code', '!=', 'SN']])).toEqual(partners((p) => p.country_id !== null && countryCode(p.country_id) !== 'SN'));
      expect(search(version, 'res.partner', ['!', ['country_id.code', '=', 'SN']])).toEqual(partners((p) => countryCode(p.country_id) !== 'SN'));
      const driversInFrance = boxes[19].sql<{ id: number }>(
        `SELECT v.id FROM fleet_vehicle v JOIN res_partner p ON p.id = v.driver_id JOIN res_country c ON c.id = p.country_id WHERE c.code = 'FR' AND v.active = 1 ORDER BY v.id`,
      );
      expect(search(version, 'fleet.vehicle', [['driver_id.country_id.code', '=', 'FR']])).toEqual(driversInFrance.map((r) => r.id));
    });

    test(`${version} many2one compared to names and ids`, () => {
      expect(search(version, 'res.partner', [['country_id', 'ilike', 'sÉn']])).toEqual(partners((p) => (countryName(p.country_id) ?? '').toLowerCase().includes('sén')));
      expect(search(version, 'res.partner', [['country_id', '=', 'France']])).toEqual(partners((p) => countryName(p.country_id) === 'France'));
      expect(search(version, 'res.partner', [['country_id', 'not ilike', 'France']])).toEqual(partners((p) => countryName(p.country_id) !== 'France'));
      expect(search(version, 'res.partner', [['country_id', '=', 2]])).toEqual(partners((p) => p.country_id === 2));
      expect(search(version, 'res.partner', [['country_id', '!=', 2]])).toEqual(partners((p) => p.country_id !== 2));
      expect(search(version, 'res.partner', [['country_id', '=', false]])).toEqual(partners((p) => p.country_id === null));
      expect(search(version, 'res.partner', [['country_id', 'in', [1, false]]])).toEqual(partners((p) => p.country_id === null || p.country_id === 1));
    });

    test(`${version} a many2one compared to a name through a comodel whose 17 _name_search departs from the generic one`, () => {
      const vehicles = boxes[19].sql<{ id: number; brand: string; model: string }>(
        `SELECT v.id, b.name AS brand, m.name AS model FROM fleet_vehicle v JOIN fleet_vehicle_model m ON m.id = v.model_id JOIN fleet_vehicle_model_brand b ON b.id = m.brand_id WHERE v.active = 1 ORDER BY v.id`,
      );
      const matches = (v: { brand: string; model: string }) => `${v.brand}\n${v.model}`.toLowerCase().includes('peu');
      const lots = boxes[19].sql<{ id: number; product_id: number | null }>('SELECT id, product_id FROM stock_lot ORDER BY id');
      if (version === 17) {
        // fleet.vehicle.model searches `ilike` whatever the operator; product.product takes '' as every product.
        expect(search(17, 'fleet.vehicle', [['model_id', 'not ilike', '']])).toEqual(vehicles.map((v) => v.id));
        expect(search(17, 'fleet.vehicle', [['model_id', 'not ilike', 'peu']])).toEqual(vehicles.filter(matches).map((v) => v.id));
        expect(search(17, 'fleet.vehicle', ['!', ['model_id', 'ilike', 'peu']])).toEqual(vehicles.filter(matches).map((v) => v.id));
        expect(search(17, 'stock.lot', [['product_id', 'not ilike', '']])).toEqual(lots.map((l) => l.id));
      } else {
        expect(search(version, 'fleet.vehicle', [['model_id', 'not ilike', '']])).toEqual([]);
        expect(search(version, 'fleet.vehicle', [['model_id', 'not ilike', 'peu']])).toEqual(vehicles.filter((v) => !matches(v)).map((v) => v.id));
        expect(search(version, 'stock.lot', [['product_id', 'not ilike', '']])).toEqual(lots.filter((l) => l.product_id === null).map((l) => l.id));
      }
      expect(search(version, 'fleet.vehicle', [['model_id', 'ilike', 'peu']])).toEqual(vehicles.filter(matches).map((v) => v.id));
    });

    test(`${version} x2many: ids, names, paths and emptiness`, () => {
      const links = boxes[19].sql<{ a: number; b: number }>('SELECT a, b FROM it_ticket_user_ids_rel');
      const tickets = boxes[19].sql<{ id: number }>('SELECT id FROM it_ticket WHERE active = 1 ORDER BY id').map((r) => r.id);
      const linkedTo = (uid: number) => new Set(links.filter((l) => l.b === uid).map((l) => l.a));
      expect(search(version, 'it.ticket', [['user_ids', 'in', [5]]])).toEqual(tickets.filter((t) => linkedTo(5).has(t)));
      expect(search(version, 'it.ticket', [['user_ids', 'not in', [5]]])).toEqual(tickets.filter((t) => !linkedTo(5).has(t)));
      expect(search(version, 'it.ticket', [['user_ids.login', '=', 'admin']])).toEqual(tickets.filter((t) => linkedTo(2).has(t)));
      expect(search(version, 'it.ticket', [['user_ids', '=', false]])).toEqual(tickets.filter((t) => !links.some((l) => l.a === t)));
      const registrations = boxes[19].sql<{ event_id: number }>(`SELECT DISTINCT event_id FROM event_registration WHERE active = 1 AND email LIKE '%.2@%'`);
      const events = new Set(registrations.map((r) => r.event_id));
      const active = boxes[19].sql<{ id: number }>('SELECT id FROM event_event WHERE active = 1 ORDER BY id').map((r) => r.id);
      expect(search(version, 'event.event', [['registration_ids.email', 'like', '.2@']])).toEqual(active.filter((e) => events.has(e)));
    });

    test(`${version} any / not any`, () => {
      expect(search(version, 'res.partner', [['country_id', 'any', [['code', '=', 'SN']]]])).toEqual(partners((p) => countryCode(p.country_id) === 'SN'));
      expect(search(version, 'res.partner', [['country_id', 'not any', [['code', '=', 'SN']]]])).toEqual(partners((p) => countryCode(p.country_id) !== 'SN'));
    });

    test(`${version} child_of and parent_of through parent_id`, () => {
      const sites = boxes[19].sql<{ id: number; parent_id: number | null }>('SELECT id, parent_id FROM space_site');
      const root = sites.find((s) => sites.some((c) => c.parent_id === s.id))!.id;
      const descendants = new Set([root]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const s of sites) {
          if (s.parent_id === null || !descendants.has(s.parent_id) || descendants.has(s.id)) continue;
          descendants.add(s.id);
          grew = true;
        }
      }
      const child = search(version, 'space.site', [['id', 'child_of', root]], { context: { active_test: false } });
      expect(child).toEqual([...descendants].sort((a, b) => a - b));
      const leaf = [...descendants].find((id) => id !== root)!;
      expect(search(version, 'space.site', [['id', 'parent_of', leaf]], { context: { active_test: false } })).toContain(root);
    });
  }
});

describe('active_test (reference 8.5)', () => {
  for (const version of V) {
    test(`${version} archived rows hidden unless asked for`, () => {
      expect(search(version, 'res.partner', [])).toEqual(partners(() => true));
      expect(search(version, 'res.partner', [], { context: { active_test: false } })).toEqual(partners(() => true, true));
      expect(search(version, 'res.partner', [['active', '=', false]])).toEqual(partners((p) => p.active !== 1, true));
      expect(search(version, 'res.partner', [['active', 'in', [true, false]]])).toEqual(partners(() => true, true));
      expect(search(version, 'res.partner', ['|', ['active', '=', false], ['id', '=', 1]])).toEqual(partners((p) => p.active !== 1 || p.id === 1, true));
    });
  }
});

describe('errors', () => {
  test('unknown field, per version', () => {
    expect(boxes[17].error('res.partner', 'search', [[['nope', '=', 1]]]).message).toBe("Invalid field res.partner.nope in leaf ('nope', '=', 1)");
    expect(boxes[18].error('res.partner', 'search', [[['country_id.nope', '=', 'x']]]).message).toBe("Invalid field res.country.nope in leaf ('nope', '=', 'x')");
    const e19 = boxes[19].error('res.partner', 'search', [[['nope', '=', true]]]);
    expect([e19.exceptionName, e19.message]).toEqual(['builtins.ValueError', "Invalid field res.partner.nope in condition ('nope', '=', True)"]);
  });

  test('unknown operator and malformed domains, per version', () => {
    expect(boxes[17].error('res.partner', 'search', [[['name', 'similar', 'x']]]).message).toBe("Invalid leaf ('name', 'similar', 'x')");
    expect(boxes[19].error('res.partner', 'search', [[['name', 'similar', 'x']]]).message).toBe("Invalid operator in condition ('name', 'similar', 'x')");
    expect(boxes[17].error('res.partner', 'search', [['&', ['name', '=', 'x']]]).message).toBe("Domain ['&', ['name', '=', 'x']] is syntactically not correct.");
    expect(boxes[19].error('res.partner', 'search', [['&', ['name', '=', 'x']]]).message).toBe("Domain() malformed domain ['&', ['name', '=', 'x']]");
    expect(boxes[19].error('res.partner', 'search', [['foo']]).message).toBe("Domain() invalid item in domain: 'foo'");
    expect(boxes[19].error('res.partner', 'search', [[['name', 'any!', []]]]).message).toBe("Domain() invalid item in domain: ['name', 'any!', []]");
  });

  test('a path or name search through a model the user cannot read is an AccessError', () => {
    const path = boxes[19].error('fleet.fuel.log', 'search', [[['vehicle_id.license_plate', 'ilike', 'A']]], {}, { uid: NO_FLEET_UID });
    expect(path.exceptionName).toBe('odoo.exceptions.AccessError');
    expect(path.message.split('\n')[0]).toBe("You are not allowed to access 'Vehicle' (fleet.vehicle) records.");
    const name = boxes[17].error('fleet.fuel.log', 'search', [[['vehicle_id', 'ilike', 'A']]], {}, { uid: NO_FLEET_UID });
    expect(name.exceptionName).toBe('odoo.exceptions.AccessError');
    // ids need no sub-search
    expect(Array.isArray(search(19, 'fleet.fuel.log', [['vehicle_id', '=', 1]], { uid: NO_FLEET_UID }))).toBe(true);
  });

  test('a computed field without a search method: 19 cannot convert it to SQL, 17/18 ignore the leaf (negated too)', () => {
    for (const uid of [ADMIN_UID, GATEWAY_UID]) {
      const error = boxes[19].error('fleet.vehicle', 'search', [[['odometer', '>', 0]]], {}, { uid });
      expect([error.exceptionName, error.message]).toEqual(['builtins.ValueError', 'Cannot convert fleet.vehicle.odometer to SQL because it is not stored']);
    }
    const all = search(17, 'fleet.vehicle', []);
    for (const version of [17, 18] as const) {
      expect(search(version, 'fleet.vehicle', [['odometer', '>', 1e12]])).toEqual(all);
      expect(search(version, 'fleet.vehicle', ['!', ['odometer', '>', 1e12]])).toEqual(all);
      expect(search(version, 'event.event', [['seats_available', '=', -1]], { uid: GATEWAY_UID }).length).toBeGreaterThan(0);
    }
  });
});

describe('dates and datetimes (reference 9.3)', () => {
  const starts = () => boxes[19].sql<{ id: number; start: string }>('SELECT id, start FROM fleet_reservation ORDER BY id');
  const ids = (f: (start: string) => boolean) =>
    starts()
      .filter((r) => f(r.start))
      .map((r) => r.id);

  test('17/18 pad a date-only value in UTC', () => {
    for (const version of [17, 18] as const) {
      expect(search(version, 'fleet.reservation', [['start', '>', '2025-06-01']])).toEqual(ids((s) => s > '2025-06-01 23:59:59'));
      expect(search(version, 'fleet.reservation', [['start', '<=', '2025-06-01']])).toEqual(ids((s) => s <= '2025-06-01 23:59:59'));
      expect(search(version, 'fleet.reservation', [['start', '>=', '2025-06-01']])).toEqual(ids((s) => s >= '2025-06-01 00:00:00'));
    }
  });

  test('19 reads a date-only value as midnight in the context tz', () => {
    const paris = { context: { tz: 'Europe/Paris' } };
    expect(search(19, 'fleet.reservation', [['start', '>', '2025-06-01']], paris)).toEqual(ids((s) => s >= '2025-06-01 22:00:00'));
    expect(search(19, 'fleet.reservation', [['start', '<=', '2025-06-01']], paris)).toEqual(ids((s) => s < '2025-06-01 22:00:00'));
    expect(search(19, 'fleet.reservation', [['start', '>=', '2025-01-10']], paris)).toEqual(ids((s) => s >= '2025-01-09 23:00:00'));
    expect(search(19, 'fleet.reservation', [['start', '>', '2025-06-01']], { uid: GATEWAY_UID })).toEqual(ids((s) => s >= '2025-06-02 00:00:00'));
    // without a context tz, the user's (the administrator is in Europe/Paris)
    expect(search(19, 'fleet.reservation', [['start', '<', '2025-06-01']])).toEqual(ids((s) => s < '2025-05-31 22:00:00'));
  });

  test('19 compares datetimes to the whole second and refuses zone suffixes', () => {
    const first = starts()[0]!;
    expect(search(19, 'fleet.reservation', [['start', '=', first.start]], { context: { active_test: false } })).toEqual(ids((s) => s === first.start));
    const error = boxes[19].error('fleet.reservation', 'search', [[['start', '>', '2025-06-01T10:00:00+02:00']]]);
    expect([error.exceptionName, error.message]).toEqual(['builtins.ValueError', "expecting only datetimes with no timezone: '2025-06-01T10:00:00+02:00'"]);
  });

  test('19 relative dates follow the request clock', () => {
    const acquisitions = boxes[19].sql<{ id: number; acquisition_date: string | null; active: number }>('SELECT id, acquisition_date, active FROM fleet_vehicle ORDER BY id');
    const expected = acquisitions.filter((v) => v.active === 1 && v.acquisition_date !== null && v.acquisition_date >= '2025-01-15').map((v) => v.id);
    expect(search(19, 'fleet.vehicle', [['acquisition_date', '>=', 'today -1y']])).toEqual(expected);
  });
});
