/**
 * Method lookup and Python argument binding through the `Orm` seam (reference 8.1), plus
 * `name_search`, `name_get` and `fields_get`.
 */
import { createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import { bindArguments } from '../src/orm/binding';
import type { OdooException, MethodSpec, OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;

beforeAll(() => {
  set = createSandboxSet();
  for (const version of [17, 18, 19] as const) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

const V = [17, 18, 19] as const;

describe('lookupMethod', () => {
  test('public, private and missing names per version', () => {
    const lookup = (version: OdooVersion, method: string, model = 'fleet.vehicle') => {
      const found = boxes[version].handle.orm.lookupMethod(model, method);
      return typeof found === 'object' ? found.decorator : found;
    };
    for (const version of V) {
      expect([lookup(version, 'search_read'), lookup(version, 'read'), lookup(version, '_read_group'), lookup(version, 'nope')]).toEqual([
        'model',
        'records',
        'private',
        undefined,
      ]);
      expect(lookup(version, 'action_confirm')).toBe('records');
      expect(lookup(version, 'context_get', 'res.users')).toBe('model');
      expect(lookup(version, 'context_get')).toBeUndefined();
    }
    expect([lookup(17, 'name_get'), lookup(18, 'name_get'), lookup(19, 'name_get')]).toEqual(['records', undefined, undefined]);
    expect([lookup(17, 'has_group', 'res.users'), lookup(18, 'has_group', 'res.users')]).toEqual(['model', 'records']);
    expect([lookup(18, 'sudo'), lookup(19, 'sudo'), lookup(19, 'search_fetch'), lookup(17, 'mapped')]).toEqual([undefined, 'private', 'private', 'private']);
    // 17.0's get_public_method asks whether the method exists first: an unknown `_x` is missing there
    // (AttributeError), private elsewhere (AccessError).
    expect([lookup(17, '_no_such_method'), lookup(18, '_no_such_method'), lookup(19, '_no_such_method')]).toEqual([undefined, 'private', 'private']);
    const nameSearch = (version: OdooVersion) => (boxes[version].handle.orm.lookupMethod('res.partner', 'name_search') as MethodSpec).params.map((p) => p.name);
    expect(nameSearch(18)).toEqual(['name', 'args', 'operator', 'limit']);
    expect(nameSearch(19)).toEqual(['name', 'domain', 'operator', 'limit']);
  });
});

describe('argument binding (Python wording)', () => {
  const cases: [string, string, unknown[], Record<string, unknown>, string][] = [
    ['search_count', 'missing', [], {}, "BaseModel.search_count() missing 1 required positional argument: 'domain'"],
    ['search', 'unknown keyword', [[]], { bogus: 1 }, "BaseModel.search() got an unexpected keyword argument 'bogus'"],
    ['search', 'duplicate', [[]], { domain: [] }, "BaseModel.search() got multiple values for argument 'domain'"],
    ['search_count', 'too many', [[], 1, 2], {}, 'BaseModel.search_count() takes from 2 to 3 positional arguments but 4 were given'],
    ['fields_get', 'too many', [null, null, null], {}, 'BaseModel.fields_get() takes from 1 to 3 positional arguments but 4 were given'],
  ];
  for (const [method, title, positional, named, message] of cases) {
    test(`${method}: ${title}`, () => {
      for (const version of V) {
        const error = boxes[version].error('res.partner', method, positional, named);
        expect([error.exceptionName, error.message]).toEqual(['builtins.TypeError', message]);
      }
    });
  }

  test('keyword errors come before positional ones, missing arguments are listed', () => {
    const spec: MethodSpec = {
      name: 'f',
      decorator: 'model',
      params: [
        { name: 'a', required: true },
        { name: 'b', required: true },
        { name: 'c', required: true },
      ],
    };
    const raised = (positional: unknown[], named: Record<string, unknown>) => {
      try {
        bindArguments('M.f', spec, positional, named);
      } catch (error) {
        return (error as OdooException).message;
      }
      return undefined;
    };
    expect(raised([], {})).toBe("M.f() missing 3 required positional arguments: 'a', 'b', and 'c'");
    expect(raised([1], {})).toBe("M.f() missing 2 required positional arguments: 'b' and 'c'");
    expect(raised([1, 2, 3, 4], { z: 1 })).toBe("M.f() got an unexpected keyword argument 'z'");
    expect(raised([1, 2, 3, 4], {})).toBe('M.f() takes 4 positional arguments but 5 were given');
    expect(raised([1, 2], { c: 3 })).toBeUndefined();
  });

  test('search_read absorbs keywords for read, action_* any argument', () => {
    const [id] = boxes[19].call('res.partner', 'search', [[]], { limit: 1 }) as number[];
    expect(boxes[19].call('res.partner', 'search_read', [[['id', '=', id]]], { fields: ['id'], load: null })).toEqual([{ id }]);
    expect(boxes[19].error('res.partner', 'action_whatever', [1, 2, 3], { x: 1 }, { ids: [1] }).exceptionName).toBe('odoo.exceptions.AccessError');
  });
});

describe('name_search and name_get', () => {
  for (const version of V) {
    test(`${version} name_search: display name match, extra domain, limit 100 by default`, () => {
      const extra = version >= 19 ? 'domain' : 'args';
      const rows = boxes[version].call('res.country', 'name_search', ['é'], {}) as [number, string][];
      const expected = boxes[19].sql<{ id: number; name: string }>(`SELECT id, name FROM res_country WHERE ulower(name) LIKE '%é%' ORDER BY name`);
      expect(rows).toEqual(expected.map((c) => [c.id, c.name]));
      const limited = boxes[version].call('res.partner', 'name_search', [''], { [extra]: [['is_company', '=', true]], limit: 3 }) as [number, string][];
      expect(limited).toHaveLength(3);
      expect(boxes[version].call('res.partner', 'name_search', [''], {})).toHaveLength(100);
      const exact = boxes[version].call('res.country', 'name_search', ['France'], { operator: '=' });
      expect(exact).toEqual(expected.length ? [[boxes[19].sql<{ id: number }>(`SELECT id FROM res_country WHERE name = 'France'`)[0]!.id, 'France']] : []);
    });
  }

  test('17 name_get returns [[id, display_name]]', () => {
    const rows = boxes[17].call('res.country', 'name_get', [], {}, { ids: [2, 1] }) as [number, string][];
    expect(rows.map((r) => r[0])).toEqual([2, 1]);
  });
});

describe('fields_get (reference 8.4)', () => {
  for (const version of V) {
    test(`${version} descriptions and attribute selection`, () => {
      const all = boxes[version].call('fleet.vehicle', 'fields_get', []) as Record<string, Record<string, unknown>>;
      expect(all['fuel_type']).toMatchObject({ type: 'selection', string: 'Fuel Type', store: true, sortable: true, searchable: true, required: false, readonly: false });
      expect(all['fuel_type']!['selection']).toContainEqual(['diesel', 'Diesel']);
      expect(all['model_id']).toMatchObject({ type: 'many2one', relation: 'fleet.vehicle.model', required: true });
      // Odoo's odometer has an inverse (it writes an odometer log): computed, yet not read-only.
      expect(all['odometer']).toMatchObject({ type: 'float', store: false, sortable: false, readonly: false, string: 'Last Odometer' });
      expect(all['display_name']).toMatchObject({ type: 'char', store: false });
      expect(Object.keys(all)).toEqual(expect.arrayContaining(['id', 'create_date', 'create_uid', 'write_date', 'write_uid']));
      expect(
        boxes[version].call('fleet.vehicle', 'fields_get', [
          ['seats', 'name'],
          ['type', 'string'],
        ]),
      ).toEqual({
        name: { string: 'Name', type: 'char' },
        seats: { string: 'Seats', type: 'integer' },
      });
      const empty = boxes[version].call('fleet.vehicle', 'fields_get', [], { attributes: [] }) as Record<string, unknown>;
      expect(empty['seats']).toEqual({});
    });

    test(`${version} store, searchable and sortable as Odoo derives them from the field's declaration`, () => {
      const flags = (model: string, fields: string[]) => boxes[version].call(model, 'fields_get', [fields, ['store', 'searchable', 'sortable', 'required']]);
      // Inherited through `_inherits`: not stored, searchable, sortable through the parent.
      expect(flags('res.users', ['name', 'email'])).toEqual({
        name: { store: false, searchable: true, sortable: true, required: false },
        email: { store: false, searchable: true, sortable: true, required: false },
      });
      // Plain related: 17 cannot sort on it, 18/19 sort through the path; an order line's currency is
      // stored by 17 and 18 (`store=True`), a column every version sorts on.
      expect(flags('fleet.vehicle.log.services', ['currency_id'])).toEqual({ currency_id: { store: false, searchable: true, sortable: version >= 18, required: false } });
      expect(flags('purchase.order.line', ['currency_id'])).toEqual({ currency_id: { store: version <= 18, searchable: true, sortable: true, required: false } });
      expect(flags('product.template.attribute.value', ['name'])).toEqual({ name: { store: false, searchable: true, sortable: version >= 18, required: false } });
      // Computed without a search method, and a one2many (stored, not a column).
      expect(flags('event.event', ['seats_available', 'registration_ids', 'seats_limited'])).toEqual({
        seats_available: { store: false, searchable: false, sortable: false, required: false },
        registration_ids: { store: true, searchable: true, sortable: false, required: false },
        seats_limited: { store: true, searchable: true, sortable: true, required: true },
      });
      expect(flags('fleet.vehicle.model', ['brand_id'])).toEqual({ brand_id: { store: true, searchable: true, sortable: true, required: true } });
      // Company-dependent: 17 keeps it in ir.property (required, not stored, not sortable); 18 in a JSON column.
      expect(flags('account.analytic.plan', ['default_applicability'])).toEqual({
        default_applicability: { store: version >= 18, searchable: true, sortable: version >= 18, required: version === 17 },
      });
    });

    test(`${version} flags, selection values and labels as Odoo ${version} declares them`, () => {
      const described = (model: string, field: string) =>
        (boxes[version].call(model, 'fields_get', [[field], ['selection', 'required', 'readonly', 'store']]) as Record<string, Record<string, unknown>>)[field];
      const keys = (model: string, field: string) => (described(model, field)!['selection'] as [string, string][]).map(([key]) => key);
      const labelOf = (model: string, field: string, key: string) => (described(model, field)!['selection'] as [string, string][]).find(([k]) => k === key)?.[1];
      const before19 = version <= 18;
      // purchase/models/purchase_order.py: 17/18 lock an order in a `done` state; 19 has a `locked` flag instead.
      expect(keys('purchase.order', 'state')).toEqual(['draft', 'sent', 'org_tribu', 'to approve', 'purchase', ...(before19 ? ['done'] : []), 'cancel']);
      expect(labelOf('purchase.order', 'state', 'done')).toBe(before19 ? 'Locked' : undefined);
      // stock/models/stock_location.py: 19 renamed the location types.
      expect([labelOf('stock.location', 'usage', 'supplier'), labelOf('stock.location', 'usage', 'view'), labelOf('stock.location', 'usage', 'transit')]).toEqual(
        before19 ? ['Vendor Location', 'View', 'Transit Location'] : ['Vendor', 'Virtual', 'Transit'],
      );
      // stock/models/stock_picking.py: `date_done` read-only before 19.
      expect(described('stock.picking', 'date_done')).toMatchObject({ readonly: before19, required: false });
      // uom/models/uom_uom.py: 17/18's ratio is set by hand and required; 19 computes it.
      expect(described('uom.uom', 'factor')).toMatchObject({ readonly: !before19, required: before19, store: true });
      // stock: an operation type's default locations are required since 18; a lot's company was required in 17.
      expect(described('stock.picking.type', 'default_location_src_id')).toMatchObject({ required: version >= 18 });
      expect(described('stock.lot', 'company_id')).toMatchObject({ required: version === 17 });
    });
  }
});
