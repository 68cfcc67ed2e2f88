/**
 * Product variants: the display name shows the combination of attribute values
 * (`_get_combination_name`), many2ones to variants show it too, and a search by name finds a
 * variant by its name or code only, never by the values (product.product's `_search_display_name`).
 * Demo variants 1-4 have attributes (see sandbox/models/product-attributes.ts).
 */
import { createSandboxSet, displayNames, searchIds, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;
const V = [17, 18, 19] as const;

beforeAll(() => {
  set = createSandboxSet((sql) => {
    sql(`UPDATE product_product SET name = 'Bureau', default_code = 'DESK-1', active = 1 WHERE id = 1`);
    sql(`UPDATE product_product SET name = 'Bureau', default_code = NULL, active = 1 WHERE id = 2`);
    sql(`UPDATE product_product SET name = 'Chaise', default_code = NULL, active = 1 WHERE id IN (3, 4)`);
    sql(`UPDATE product_product SET name = 'Autre' WHERE id > 4 AND name IN ('Bureau', 'Chaise')`);
    sql(`UPDATE stock_quant SET product_id = 1 WHERE id = 1`);
    sql(`UPDATE stock_quant SET product_id = 2 WHERE id = 2`);
    sql(`UPDATE stock_quant SET product_id = 5 WHERE product_id IN (1, 2) AND id > 2`);
  });
  for (const version of V) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

describe('variant display name', () => {
  for (const version of V) {
    test(`${version} [code] name (values): lines in order, no single-value line, no attribute that creates no variant`, () => {
      // Variant 1: Material (line sequence 5) before Colour (10), Warranty creates no variant.
      // Variant 3: Colour has one value, Material one active value. Variant 4: one of its values is
      // archived, so archived values count and Material has two.
      expect(displayNames(boxes[version], 'product.product', [1, 2, 3, 4])).toEqual(['[DESK-1] Bureau (Acier, Blanc)', 'Bureau (Bois, Noir)', 'Chaise', 'Chaise (Bois)']);
    });

    test(`${version} a many2one to a variant shows the combination`, () => {
      const quants = boxes[version].call('stock.quant', 'read', [['product_id']], {}, { ids: [1, 2] });
      expect(quants).toEqual([
        { id: 1, product_id: [1, '[DESK-1] Bureau (Acier, Blanc)'] },
        { id: 2, product_id: [2, 'Bureau (Bois, Noir)'] },
      ]);
    });
  }

  test('values follow the attribute lines, then the values, in their _order', () => {
    const box = boxes[19];
    box.sql(`UPDATE product_template_attribute_line SET sequence = 30 WHERE id = 2`);
    try {
      expect(displayNames(box, 'product.product', [1, 2])).toEqual(['[DESK-1] Bureau (Blanc, Acier)', 'Bureau (Noir, Bois)']);
      box.sql(`UPDATE product_template_attribute_line SET sequence = 10 WHERE id = 2`);
      // Same line sequence: the attribute's sequence decides (Colour 1, Material 2).
      expect(displayNames(box, 'product.product', [1])).toEqual(['[DESK-1] Bureau (Blanc, Acier)']);
      box.sql(`UPDATE product_attribute SET sequence = NULL WHERE id = 1`);
      expect(displayNames(box, 'product.product', [1])).toEqual(['[DESK-1] Bureau (Acier, Blanc)']);
    } finally {
      box.sql(`UPDATE product_template_attribute_line SET sequence = 5 WHERE id = 2`);
      box.sql(`UPDATE product_attribute SET sequence = 1 WHERE id = 1`);
    }
  });
});

describe('variant search by name', () => {
  for (const version of V) {
    test(`${version} by name or code, never by the attribute values`, () => {
      const box = boxes[version];
      expect(searchIds(box, 'stock.quant', [['product_id', 'ilike', 'bureau']])).toEqual([1, 2]);
      expect(searchIds(box, 'stock.quant', [['product_id', 'ilike', 'desk-1']])).toEqual([1]);
      expect(searchIds(box, 'stock.quant', [['product_id', 'ilike', 'Bois']])).toEqual([]);
      expect(searchIds(box, 'stock.quant', [['product_id', '=', 'Bureau (Bois, Noir)']])).toEqual([]);
      const named = (box.call('product.product', 'name_search', [], { name: 'Noir' }) as unknown[]).length;
      expect(named).toBe(0);
    });

    test(`${version} a [code] in the searched name finds the variant of that code`, () => {
      const box = boxes[version];
      expect(searchIds(box, 'stock.quant', [['product_id', '=', '[DESK-1] Bureau (Acier, Blanc)']])).toEqual([1]);
    });
  }

  // 17 has no search on display_name (18 added `_search_display_name`).
  for (const version of [18, 19] as const) {
    test(`${version} a condition on the variant's own display name searches the same way`, () => {
      const box = boxes[version];
      expect(searchIds(box, 'product.product', [['display_name', 'ilike', 'bureau']])).toEqual([1, 2]);
      expect(searchIds(box, 'product.product', [['display_name', 'ilike', 'Acier']])).toEqual([]);
      expect(searchIds(box, 'product.product', [['display_name', '=', '[DESK-1] Bureau (Acier, Blanc)']])).toEqual([1]);
      expect(searchIds(box, 'product.product', [['display_name', 'not ilike', 'bureau']])).not.toContain(1);
    });
  }

  test('19 reads the [code] of each name of in; 18 only of =', () => {
    expect(searchIds(boxes[19], 'stock.quant', [['product_id', 'in', ['[DESK-1] x', 'Bureau']]])).toEqual([1, 2]);
    expect(searchIds(boxes[18], 'stock.quant', [['product_id', 'in', ['[DESK-1] x', 'Bureau']]])).toEqual([1, 2]);
    expect(searchIds(boxes[18], 'stock.quant', [['product_id', 'in', ['[DESK-1] x']]])).toEqual([]);
    expect(searchIds(boxes[19], 'stock.quant', [['product_id', 'in', ['[DESK-1] x']]])).toEqual([1]);
  });
});

test("an attribute's variant creation: 17 labels the last value 'Never (option)'", () => {
  const label = (version: OdooVersion) =>
    (boxes[version].call('product.attribute', 'fields_get', [['create_variant']], { attributes: ['selection'] }) as Record<string, { selection: [string, string][] }>)[
      'create_variant'
    ]!.selection[2];
  expect(label(17)).toEqual(['no_variant', 'Never (option)']);
  expect(label(18)).toEqual(['no_variant', 'Never']);
  expect(label(19)).toEqual(['no_variant', 'Never']);
});
