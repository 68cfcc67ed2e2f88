/**
 * compareCatalogue on plain objects: the mismatches the sandbox cannot be started with (relation
 * targets, x2many and distribution types, dotted paths through plain fields, catalogue enum values
 * the ERP lacks), and what is not drift (ERP-computed fields the catalogue says are computed).
 */
import { compareCatalogue, orderFields } from '@ops-data-gateway/gateway/runtime/drift/compare-catalogue';
import type { ErpField, ErpSchema } from '@ops-data-gateway/gateway/runtime/drift/erp-schema';
import type { FieldSource, FieldSpec, ResourceSpec } from '@ops-data-gateway/gateway/runtime/resource-spec';

const field = (name: string, type: FieldSpec['type'], source: FieldSource, extra: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  type,
  nullable: true,
  personal: false,
  deprecated: false,
  source,
  ...extra,
});

const resource = (fields: FieldSpec[], extra: Partial<ResourceSpec> = {}): ResourceSpec => ({
  path: 'demo/things',
  domain: 'demo',
  name: 'things',
  model: 'x.thing',
  defaultOrder: 'id desc',
  scope: [],
  fields,
  filters: [],
  relations: [],
  sortable: {},
  deprecated: false,
  listQuerySchema: {},
  exportQuerySchema: {},
  aggregateQuerySchema: {},
  detailQuerySchema: {},
  ...extra,
});

const THING: Record<string, ErpField> = {
  id: { type: 'integer', store: true, sortable: true, searchable: true },
  name: { type: 'char', store: true, sortable: true, searchable: true },
  total: { type: 'float', store: false, sortable: false, searchable: false },
  state: {
    type: 'selection',
    selection: [
      ['draft', 'Draft'],
      ['done', 'Done'],
    ],
    store: true,
    sortable: true,
    searchable: true,
  },
  partner_id: { type: 'many2one', relation: 'res.partner', store: true, sortable: true, searchable: true },
  tag_ids: { type: 'char', store: true, sortable: true, searchable: true },
  distribution: { type: 'char', store: true, sortable: true, searchable: true },
};
const schema: ErpSchema = new Map([
  ['x.thing', THING],
  ['res.partner', { id: { type: 'integer' }, name: { type: 'char' } }],
]);

describe(compareCatalogue.name, () => {
  it.each<[string, { given: ResourceSpec; want: object[] }]>([
    [
      'no drift when types fit, a computed field included',
      {
        given: resource([
          field('id', 'integer', { kind: 'id' }),
          field('name', 'string', { kind: 'field', erp: 'name', computed: false }),
          field('total', 'number', { kind: 'field', erp: 'total', computed: true }),
          field('partner', 'string', { kind: 'related', erp: 'partner_id', comodel: 'res.partner', comodelField: 'name' }),
        ]),
        want: [],
      },
    ],
    [
      'a many2one pointing elsewhere',
      {
        given: resource([field('partner_id', 'integer', { kind: 'many2one', erp: 'partner_id', comodel: 'res.users', take: 'id' })]),
        want: [{ kind: 'type_mismatch', model: 'x.thing', field: 'partner_id', detail: 'catalogue many2one to res.users, ERP many2one to res.partner' }],
      },
    ],
    [
      'an x2many that is not one',
      {
        given: resource([field('tags', 'array', { kind: 'x2many', erp: 'tag_ids', comodel: 'x.tag', take: 'ids' }, { items: 'integer' })]),
        want: [{ kind: 'type_mismatch', model: 'x.thing', field: 'tag_ids', detail: 'catalogue one2many/many2many to x.tag, ERP char' }],
      },
    ],
    [
      'a distribution that is not json',
      {
        given: resource([field('distribution', 'string', { kind: 'distribution', erp: 'distribution' })]),
        want: [{ kind: 'type_mismatch', model: 'x.thing', field: 'distribution', detail: 'catalogue distribution (json), ERP char' }],
      },
    ],
    [
      'a number read from text',
      {
        given: resource([field('name', 'number', { kind: 'field', erp: 'name', computed: false })]),
        want: [{ kind: 'type_mismatch', model: 'x.thing', field: 'name', detail: 'catalogue number, ERP char (fits: float, monetary, integer)' }],
      },
    ],
    [
      'an enum value the ERP lacks',
      {
        given: resource([field('state', 'string', { kind: 'field', erp: 'state', computed: false }, { enum: ['draft', 'done', 'cancel'] })]),
        want: [{ kind: 'selection_unknown_to_erp', model: 'x.thing', field: 'state', detail: "catalogue value(s) 'cancel' not in the ERP selection" }],
      },
    ],
    [
      'a filter path through a plain field, a missing comodel hop field',
      {
        given: resource([], {
          filters: [
            { name: 'bad', op: '=', erp: 'name.id', type: 'integer', deprecated: false },
            { name: 'partner_city', op: '=', erp: 'partner_id.city', type: 'string', deprecated: false },
          ],
        }),
        want: [
          { kind: 'type_mismatch', model: 'x.thing', field: 'name', detail: 'path name.id goes through name, ERP char (not relational)' },
          { kind: 'missing_field', model: 'res.partner', field: 'city', detail: 'field res.partner.city does not exist in the ERP' },
        ],
      },
    ],
    [
      'an order on a field the ERP cannot sort, a scope on one it cannot search',
      {
        given: resource([], { defaultOrder: 'total desc, id', scope: [{ erp: 'total', op: '=', value: 1 }] }),
        want: [
          { kind: 'not_searchable', model: 'x.thing', field: 'total', detail: 'the ERP cannot search on x.thing.total' },
          { kind: 'not_sortable', model: 'x.thing', field: 'total', detail: 'the ERP cannot sort on x.thing.total' },
        ],
      },
    ],
  ])('%s', (_name, { given, want }) => {
    const problems = compareCatalogue([given], schema).map(({ kind, model, field, detail }) => ({ kind, model, field, detail }));
    expect(problems).toEqual(want);
  });

  it('reports a missing comodel once, with every field that reads it', () => {
    const given = resource([
      field('owner', 'string', { kind: 'related', erp: 'partner_id', comodel: 'res.partner', comodelField: 'name' }),
      field('owner_id', 'integer', { kind: 'related', erp: 'partner_id', comodel: 'res.partner', comodelField: 'id' }),
    ]);
    expect(
      compareCatalogue(
        [given],
        new Map([
          ['x.thing', THING],
          ['res.partner', null],
        ]),
      ),
    ).toEqual([
      {
        resource: 'demo/things',
        kind: 'missing_model',
        model: 'res.partner',
        field: '',
        detail: 'model res.partner does not exist in the ERP',
        uses: ['field owner', 'field owner_id'],
      },
    ]);
  });
});

describe(orderFields.name, () => {
  it.each([
    ['date desc, sequence asc', ['date', 'sequence']],
    ['name', ['name']],
    ['', []],
  ])('%j', (given, want) => expect(orderFields(given)).toEqual(want));
});
