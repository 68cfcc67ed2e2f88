/**
 * @module Product attributes, as Odoo's `product` module has them: an attribute (Colour) and its
 * values (White, Black), the attribute lines of a product template, and the template attribute
 * values a variant is the combination of. The sandbox has no product.template: lines stand alone.
 * A variant's display name shows its combination (`Desk (Steel, White)`), see
 * `variantCombinationName`. Demo data: template A (Material, Colour, Warranty that creates no
 * variant) and template B (Colour with one value, Material with one archived value), on the first
 * four variants.
 */
import { allOf, anyOf, leaf, NEGATIVE_OPERATORS, type SearchDisplayName } from '../orm/display-name-search';
import type { ModelDef } from '../orm/model-def';

/** `attribute: value`, the display name of an attribute value and of a template attribute value. */
const ATTRIBUTE_VALUE_NAME = `COALESCE((SELECT a."name" FROM "product_attribute" a WHERE a."id" = t."attribute_id"), 'False') || ': ' || COALESCE(t."name", 'False')`;

export const PRODUCT_ATTRIBUTE_MODELS: readonly ModelDef[] = [
  {
    name: 'product.attribute',
    description: 'Product Attribute',
    order: 'sequence, id',
    demoRows: 3,
    fields: {
      name: { type: 'char', string: 'Attribute', required: true, demo: { pick: ['Couleur', 'Matière', 'Garantie'] } },
      active: { type: 'boolean', truthy: 1 },
      create_variant: {
        type: 'selection',
        string: 'Variant Creation',
        selection: [
          ['always', 'Instantly'],
          ['dynamic', 'Dynamically'],
          ['no_variant', 'Never'],
        ],
        declaredUntil: [
          {
            until: 17,
            selection: [
              ['always', 'Instantly'],
              ['dynamic', 'Dynamically'],
              ['no_variant', 'Never (option)'],
            ],
          },
        ],
        required: true,
        demo: { pick: ['always', 'always', 'no_variant'] },
      },
      // Colour is listed before Material, but template A's lines put Material first.
      sequence: { type: 'integer', demo: { pick: [1, 2, 3] }, empty: 0 },
    },
  },
  {
    name: 'product.attribute.value',
    description: 'Attribute Value',
    order: 'attribute_id, sequence, id',
    displayName: ATTRIBUTE_VALUE_NAME,
    nameSearch: ['name'],
    demoRows: 7,
    fields: {
      name: { type: 'char', string: 'Value', required: true, demo: { pick: ['Blanc', 'Noir', 'Rouge', 'Acier', 'Bois', '1 an', '2 ans'] } },
      sequence: { type: 'integer', demo: { pick: [1, 2, 3, 2, 1, 1, 2] }, empty: 0 },
      attribute_id: { type: 'many2one', relation: 'product.attribute', string: 'Attribute', required: true, demo: { pick: [1, 1, 1, 2, 2, 3, 3] } },
      active: { type: 'boolean', truthy: 1 },
    },
  },
  {
    name: 'product.template.attribute.line',
    description: 'Product Template Attribute Line',
    order: 'sequence, attribute_id, id',
    recName: 'attribute_id',
    nameSearch: ['attribute_id', 'value_ids'],
    demoRows: 5,
    fields: {
      active: { type: 'boolean', truthy: 1 },
      sequence: { type: 'integer', demo: { pick: [10, 5, 20, 10, 10] }, empty: 0 },
      attribute_id: { type: 'many2one', relation: 'product.attribute', string: 'Attribute', required: true, demo: { pick: [1, 2, 3, 1, 2] } },
      value_ids: { type: 'many2many', relation: 'product.attribute.value', string: 'Values', demo: { links: [[1, 2], [4, 5], [6, 7], [3], [4, 5]] } },
      product_template_value_ids: {
        type: 'one2many',
        relation: 'product.template.attribute.value',
        inverse: 'attribute_line_id',
        string: 'Product Attribute Values',
      },
    },
  },
  {
    name: 'product.template.attribute.value',
    description: 'Product Template Attribute Value',
    order: 'attribute_line_id, product_attribute_value_id, id',
    displayName: ATTRIBUTE_VALUE_NAME,
    nameSearch: ['name'],
    demoRows: 9,
    fields: {
      ptav_active: { type: 'boolean', string: 'Active', demo: { pick: [true, true, true, true, true, true, true, true, false] }, empty: 0 },
      name: { type: 'char', string: 'Value', readonly: true, related: 'product_attribute_value_id.name', demo: { copy: 'product_attribute_value_id.name' }, empty: 0 },
      product_attribute_value_id: {
        type: 'many2one',
        relation: 'product.attribute.value',
        string: 'Attribute Value',
        required: true,
        demo: { pick: [1, 2, 4, 5, 6, 7, 3, 4, 5] },
      },
      attribute_line_id: { type: 'many2one', relation: 'product.template.attribute.line', required: true, demo: { pick: [1, 1, 2, 2, 3, 3, 4, 5, 5] } },
      // Odoo: related to attribute_line_id.attribute_id, stored.
      attribute_id: { type: 'many2one', relation: 'product.attribute', string: 'Attribute', readonly: true, demo: { copy: 'attribute_line_id.attribute_id' }, empty: 0 },
    },
  },
];

/** Demo combinations of the first variants (template attribute value ids), for product.product. */
export const DEMO_VARIANT_COMBINATIONS: readonly (readonly number[])[] = [
  [1, 3, 5],
  [2, 4],
  [7, 8],
  [7, 9],
];

/**
 * Odoo's `_get_combination_name` of a variant (alias `t`) as SQL: its template attribute values in
 * their `_order`, without those of attributes that create no variant, nor those of lines with a
 * single value (active values only, unless one of the variant's values is archived), joined by
 * `, `; NULL when none is left. The ORDER BY spells out the `_order` chain: attribute line
 * (`sequence, attribute_id, id`, the attribute by `sequence, id`), then attribute value
 * (`attribute_id, sequence, id`), then id; PostgreSQL puts NULL sequences last.
 */
export function variantCombinationName(relationTable: string): string {
  // The variant's values of attributes that create variants (`_without_no_variant_attributes`).
  const values = (v: string) => `FROM "${relationTable}" ${v}_r
      JOIN "product_template_attribute_value" ${v} ON ${v}."id" = ${v}_r."b"
      LEFT JOIN "product_attribute" ${v}_a ON ${v}_a."id" = ${v}."attribute_id"
      WHERE ${v}_r."a" = t."id" AND ${v}_a."create_variant" IS NOT 'no_variant'`;
  const allActive = `NOT EXISTS (SELECT 1 ${values('o')} AND COALESCE(o."ptav_active", 0) = 0)`;
  const lineValues = `SELECT COUNT(*) FROM "product_template_attribute_value" w
      WHERE w."attribute_line_id" = v."attribute_line_id" AND (w."ptav_active" = 1 OR NOT ${allActive})`;
  return `(SELECT NULLIF(group_concat(v."name", ', ' ORDER BY
        l."sequence" IS NULL, l."sequence", la."sequence" IS NULL, la."sequence", la."id", l."id",
        pa."sequence" IS NULL, pa."sequence", pa."id", pav."sequence" IS NULL, pav."sequence", pav."id", v."id"), '')
      FROM (SELECT v."id" ${values('v')} AND (${lineValues}) != 1) shown
      JOIN "product_template_attribute_value" v ON v."id" = shown."id"
      LEFT JOIN "product_template_attribute_line" l ON l."id" = v."attribute_line_id"
      LEFT JOIN "product_attribute" la ON la."id" = l."attribute_id"
      LEFT JOIN "product_attribute_value" pav ON pav."id" = v."product_attribute_value_id"
      LEFT JOIN "product_attribute" pa ON pa."id" = pav."attribute_id")`;
}

/**
 * product.product's `_search_display_name`: the template's name or the variant's code (the barcode
 * too in Odoo; the sandbox has none), never the combination its display name shows. A searched
 * name with a `[code]` also finds the variant of that code (19: each value of `in`; 18: `=`).
 * 17 searches the same way (its `_name_search`, progressive, is not reproduced).
 */
export const searchVariantDisplayName: SearchDisplayName = (operator, value, traits) => {
  const domains = [leaf('name', operator, value), leaf('default_code', operator, value)];
  const named = traits.equalityAsSet ? (operator === 'in' && Array.isArray(value) ? value : []) : operator === '=' ? [value] : [];
  for (const name of named) {
    const code = typeof name === 'string' ? /\[(.*?)\]/.exec(name)?.[1] : undefined;
    if (code !== undefined) domains.push(leaf('default_code', '=', code));
  }
  return NEGATIVE_OPERATORS.has(operator) ? allOf(domains) : anyOf(domains);
};
