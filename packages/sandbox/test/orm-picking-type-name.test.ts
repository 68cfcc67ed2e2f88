/**
 * An operation type shows `warehouse: name`; a search on that text is split back into a condition
 * on each part (stock.picking.type's `_search_display_name`), also through a picking's many2one.
 */
import { createSandboxSet, displayNames, searchIds, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;
const V = [17, 18, 19] as const;

beforeAll(() => {
  set = createSandboxSet((sql) => {
    sql(`UPDATE stock_warehouse SET name = 'Entrepôt central' WHERE id = 1`);
    sql(`UPDATE stock_picking_type SET warehouse_id = 1, name = 'Livraisons', active = 1 WHERE id = 2`);
    sql(`UPDATE stock_picking_type SET name = 'Réceptions' WHERE id != 2`);
  });
  for (const version of V) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

describe('operation type search by "warehouse: name"', () => {
  for (const version of V) {
    test(`${version} the display name is split into warehouse and name`, () => {
      const box = boxes[version];
      const deliveries = box.sql<{ id: number }>('SELECT id FROM stock_picking WHERE picking_type_id = 2 ORDER BY id').map((r) => r.id);
      expect(deliveries.length).toBeGreaterThan(0);
      expect(displayNames(box, 'stock.picking.type', [2])).toEqual(['Entrepôt central: Livraisons']);
      expect(searchIds(box, 'stock.picking', [['picking_type_id', '=', 'Entrepôt central: Livraisons']])).toEqual(deliveries);
      expect(searchIds(box, 'stock.picking', [['picking_type_id', 'ilike', 'central: livr']])).toEqual(deliveries);
      expect(searchIds(box, 'stock.picking', [['picking_type_id', 'ilike', 'Livraisons']])).toEqual(deliveries);
      // Three parts are no display name: searched as a name, found nowhere.
      expect(searchIds(box, 'stock.picking', [['picking_type_id', '=', 'Entrepôt: central: Livraisons']])).toEqual([]);
      const others = searchIds(box, 'stock.picking', [['picking_type_id', '!=', 'Entrepôt central: Livraisons']]);
      expect(others.some((id) => deliveries.includes(id))).toBe(false);
      expect(others.length).toBeGreaterThan(0);
    });
  }

  for (const version of [18, 19] as const) {
    test(`${version} a condition on the operation type's own display name is split too`, () => {
      const box = boxes[version];
      expect(searchIds(box, 'stock.picking.type', [['display_name', '=', 'Entrepôt central: Livraisons']])).toEqual([2]);
      expect(searchIds(box, 'stock.picking.type', [['display_name', 'ilike', 'central: livr']])).toEqual([2]);
    });
  }

  test('19 leaves not in to the ORM: the positive search, negated; 18 compares each field', () => {
    expect(searchIds(boxes[19], 'stock.picking.type', [['display_name', 'not in', ['Entrepôt central: Livraisons']]])).not.toContain(2);
    expect(searchIds(boxes[18], 'stock.picking.type', [['display_name', 'not in', ['Entrepôt central: Livraisons']]])).toContain(2);
  });

  test('19 splits each name of in', () => {
    const box = boxes[19];
    const deliveries = box.sql<{ id: number }>('SELECT id FROM stock_picking WHERE picking_type_id = 2 ORDER BY id').map((r) => r.id);
    expect(searchIds(box, 'stock.picking', [['picking_type_id', 'in', ['Entrepôt central: Livraisons', 'nothing']]])).toEqual(deliveries);
  });
});
