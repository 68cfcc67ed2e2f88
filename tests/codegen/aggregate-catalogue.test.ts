/**
 * The catalogue's `aggregate`: dimensions and measures derived from field types (personal fields
 * never, unless listed), restricted by YAML, and every mistake in the key located and explained.
 * The runtime's bounds of the route are the ones the generator documents.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueErrors, formatCatalogueError } from '../../codegen/catalogue-error';
import { readCatalogue } from '../../codegen/generate';
import { AGGREGATE_LIMITS as DOCUMENTED } from '../../codegen/kinds/aggregate/aggregate-limits';
import type { CatalogueModel } from '../../codegen/model/catalogue-model';
import { AGGREGATE_LIMITS as ENFORCED } from '../../packages/gateway/runtime/data-routes/kinds/aggregate/aggregate-query';

const root = join(__dirname, '..', '..');

const domain = (aggregate: string) => `domain: demo
title: Demo
description: A demo domain.
resources:
  things:
    title: Things
    description: Things.
    model: demo.thing
    default_order: name asc
${aggregate}    fields:
      id: { type: integer, description: Identifier., erp: id }
      name: { type: string, description: Name., erp: name }
      state: { type: string, description: State., enum: [a, b], erp: state }
      done: { type: boolean, description: Done., erp: done }
      day: { type: string, format: date, description: Day., erp: day }
      owner: { type: string, description: Owner., personal: true, erp: { many2one: owner_id, comodel: res.users } }
      owner_id: { type: integer, description: Owner's id., personal: true, erp: { many2one: owner_id, comodel: res.users } }
      partner_id: { type: integer, description: Partner., erp: { many2one: partner_id, comodel: res.partner } }
      amount: { type: number, description: Amount., erp: amount }
      salary: { type: number, description: Salary., personal: true, erp: salary }
      total: { type: number, description: Total., erp: { field: total, computed: true } }
      tags: { type: array, items: string, description: Tags., erp: { x2many: tag_ids, comodel: demo.tag } }
      tag_ids: { type: array, items: integer, description: Tags' ids., erp: { x2many: tag_ids, comodel: demo.tag } }
`;

function read(text: string): { errors: string[]; model?: CatalogueModel } {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
  try {
    copyFileSync(join(root, 'catalogue', 'catalogue.schema.json'), join(dir, 'catalogue.schema.json'));
    copyFileSync(join(root, 'catalogue', 'api.yaml'), join(dir, 'api.yaml'));
    writeFileSync(join(dir, 'demo.yaml'), text);
    return { errors: [], model: readCatalogue({ catalogueDir: dir, root: dir }) };
  } catch (error) {
    if (!(error instanceof CatalogueErrors)) throw error;
    return { errors: error.errors.map(formatCatalogueError) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const aggregateOf = (text: string) => read(text).model?.domains[0]?.resources[0]?.aggregate;

describe('catalogue: aggregate', () => {
  it('derives dimensions and measures from field types, personal fields left out', () => {
    const aggregate = aggregateOf(domain(''));
    expect(aggregate?.dimensions.map((d) => [d.name, d.kind])).toEqual([
      ['state', 'value'],
      ['done', 'boolean'],
      ['day', 'date'],
      ['partner_id', 'many2one_id'],
    ]);
    expect(aggregate?.measures.map((m) => [m.name, m.aggregators.join('|')])).toEqual([
      ['partner_id', 'count_distinct'],
      ['amount', 'sum|avg|min|max'],
    ]);
  });

  it('restricts to the fields listed, which may then be personal or texts', () => {
    const aggregate = aggregateOf(domain('    aggregate: { dimensions: [owner, name], measures: [salary] }\n'));
    expect(aggregate?.dimensions.map((d) => [d.name, d.kind, d.personal])).toEqual([
      ['name', 'value', false],
      ['owner', 'many2one_name', true],
    ]);
    expect(aggregate?.measures.map((m) => m.name)).toEqual(['salary']);
  });

  it('`aggregate: false` removes the route', () => {
    expect(aggregateOf(domain('    aggregate: false\n'))).toBeUndefined();
  });

  it.each([
    ['    aggregate: { dimensions: [nope] }\n', /aggregate\.dimensions lists 'nope': it is not a field of this resource/],
    ['    aggregate: { dimensions: [amount] }\n', /aggregate\.dimensions lists 'amount': a decimal number cannot be grouped by/],
    ['    aggregate: { dimensions: [total] }\n', /aggregate\.dimensions lists 'total': only fields stored on the model itself/],
    ['    aggregate: { dimensions: [tags] }\n', /aggregate\.dimensions lists 'tags': only fields stored on the model itself/],
    ['    aggregate: { measures: [state] }\n', /aggregate\.measures lists 'state': only numbers \(sum, avg, min, max\) and many2ones/],
    ['    aggregate: { measures: [total] }\n', /aggregate\.measures lists 'total': only fields stored/],
    ['    aggregate: { group: [state] }\n', /demo\.yaml:\d+:\d+/],
    ['    aggregate: true\n', /demo\.yaml:\d+:\d+/],
  ])('locates and explains %j', (yaml, message) => {
    const { errors } = read(domain(yaml));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
    expect(errors[0]).toMatch(/^catalogue\/demo\.yaml:\d+:\d+|demo\.yaml:\d+:\d+/);
  });

  it('the runtime enforces the bounds the generator documents', () => {
    expect(ENFORCED).toEqual(DOCUMENTED);
  });
});
