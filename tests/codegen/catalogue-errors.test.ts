/**
 * A mistake in a catalogue file stops the build with the file, line and column, the key, a sentence
 * saying what is wrong and what is allowed there (with the closest allowed name to a misspelt one);
 * every problem of a run is reported at once.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueErrors, formatCatalogueError } from '../../codegen/catalogue-error';
import { readCatalogue } from '../../codegen/generate';

const root = join(__dirname, '..', '..');

/** A valid one-resource domain; each case breaks one line of it. */
const VALID = `domain: demo
title: Demo
description: A demo domain.
resources:
  things:
    title: Things
    description: Things.
    model: demo.thing
    default_order: name asc
    fields:
      id: { type: integer, description: Identifier., erp: id }
      name: { type: string, description: Name., erp: name }
      state: { type: string, description: State., enum: [a, b], erp: state }
      owner: { type: string, description: Owner., erp: { many2one: owner_id, comodel: res.users } }
      total: { type: number, description: Total., erp: { field: total, computed: true } }
      owner_id: { type: integer, description: Owner's id., erp: { many2one: owner_id, comodel: res.users } }
    filters:
      name: { op: ilike, field: name }
      state: { op: "=", field: state }
`;

function problems(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
  try {
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(root, 'catalogue', 'catalogue.schema.json'), join(dir, 'catalogue.schema.json'));
    copyFileSync(join(root, 'catalogue', 'api.yaml'), join(dir, 'api.yaml'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    readCatalogue({ catalogueDir: dir, root: dir });
    return [];
  } catch (error) {
    if (!(error instanceof CatalogueErrors)) throw error;
    return error.errors.map(formatCatalogueError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const withLine = (from: string, to: string) => {
  if (!VALID.includes(from)) throw new Error(`fixture lacks: ${from}`);
  return { 'demo.yaml': VALID.replace(from, to) };
};

describe('catalogue errors are located and explained', () => {
  it('accepts the valid fixture', () => {
    expect(problems({ 'demo.yaml': VALID })).toEqual([]);
  });

  it.each([
    [
      'an unknown key',
      withLine('    model: demo.thing\n', '    model: demo.thing\n    colour: blue\n'),
      /demo\.yaml:9:5: resources\.things\.colour: unknown key 'colour'; allowed: title, description, model, default_order, order_only, scope, deprecated, cache, aggregate, fields, relations, filters$/m,
    ],
    [
      'a wrong type',
      withLine('type: integer, description: Identifier.', 'type: int, description: Identifier.'),
      /demo\.yaml:11:19: resources\.things\.fields\.id\.type: 'int' is not a value allowed here; allowed: integer, string, number, boolean, array$/m,
    ],
    [
      'a filter on a field that does not exist',
      withLine('name: { op: ilike, field: name }', 'name: { op: ilike, field: label }'),
      /demo\.yaml:18:\d+: resources\.things\.filters\.name\.field: filter 'name' is on field 'label', which the resource does not define; allowed: a field of this resource: id, name, state, owner, total, owner_id; or 'erp'/,
    ],
    [
      'an order on a non-sortable field',
      withLine('owner: { type: string, description: Owner.,', 'owner: { type: string, sortable: true, description: Owner.,'),
      /demo\.yaml:14:\d+: resources\.things\.fields\.owner\.sortable: field 'owner' cannot be sortable/,
    ],
    [
      'a default order on a computed field',
      withLine('default_order: name asc', 'default_order: total desc'),
      /demo\.yaml:9:20: resources\.things\.default_order: default_order uses 'total', which this resource maps as computed \(field 'total'\): the ERP cannot sort on it; allowed: id, name, state, owner_id \(ERP field names\), or a field listed under 'order_only'$/m,
    ],
    [
      'a typo in the default order',
      withLine('default_order: name asc', 'default_order: nmae asc'),
      /demo\.yaml:9:20: resources\.things\.default_order: default_order uses 'nmae', which no field of this resource reads: fix the name, or list it under 'order_only'.*; allowed: did you mean 'name'\? id, name, state, owner_id \(ERP field names\)/,
    ],
    [
      'a default order on an x2many',
      {
        'demo.yaml': VALID.replace('default_order: name asc', 'default_order: tag_ids asc').replace(
          '      total:',
          '      tags: { type: array, items: string, description: Tags., erp: { x2many: tag_ids, comodel: demo.tag } }\n      total:',
        ),
      },
      /demo\.yaml:9:20: resources\.things\.default_order: default_order uses 'tag_ids', an x2many \(field 'tags'\): the ERP cannot sort on it/,
    ],
    [
      'an order_only field the default order does not use',
      withLine('    default_order: name asc\n', '    default_order: name asc\n    order_only: [sequence]\n'),
      /demo\.yaml:10:\d+: resources\.things\.order_only\[0\]: order_only lists 'sequence', which default_order does not use/,
    ],
    [
      'an order_only field the resource already reads',
      withLine('    default_order: name asc\n', '    default_order: name asc, sequence\n    order_only: [sequence, name]\n'),
      /demo\.yaml:10:28: resources\.things\.order_only\[1\]: order_only lists 'name', which a field of this resource already reads/,
    ],
    [
      'an enum filter without values',
      withLine('state: { op: "=", field: state }', 'state: { op: "=", erp: state, type: enum }'),
      /demo\.yaml:19:\d+: resources\.things\.filters\.state: filter 'state' is an enum filter without values: add 'values'; allowed: values: \[/,
    ],
    [
      'a duplicate route',
      withLine('      name: { op: ilike, field: name }\n', '      name: { op: ilike, field: name }\n      name: { op: ilike, field: name }\n'),
      /demo\.yaml:19:\d+: key 'name' is defined twice in the same map \(Map keys must be unique\)/,
    ],
    [
      'an operator that does not fit the value type',
      withLine('name: { op: ilike, field: name }', 'name: { op: ">=", field: name }'),
      /demo\.yaml:18:\d+: resources\.things\.filters\.name\.op: filter 'name': operator '>=' does not apply to string values; allowed: =, ilike$/m,
    ],
    [
      'a cache TTL that is not whole seconds',
      withLine('    default_order: name asc\n', '    default_order: name asc\n    cache: { ttl: 5s }\n'),
      /demo\.yaml:10:\d+: resources\.things\.cache\.ttl: '5s' is not allowed here; allowed: an integer from 0 to 86400$/m,
    ],
    [
      'an unknown key in a cache',
      withLine('    default_order: name asc\n', '    default_order: name asc\n    cache: { ttl: 5, stale: 10 }\n'),
      /demo\.yaml:10:\d+: resources\.things\.cache\.stale: unknown key 'stale'; allowed: ttl, stale_while_revalidate, watch$/m,
    ],
    [
      'a cache TTL longer than a day',
      withLine('description: A demo domain.\n', 'description: A demo domain.\ncache: { ttl: 86401 }\n'),
      /demo\.yaml:4:\d+: cache\.ttl: 86401 is not allowed here; allowed: an integer from 0 to 86400$/m,
    ],
    [
      'a stale window on a resource its domain does not cache',
      {
        'demo.yaml': VALID.replace('description: A demo domain.\n', 'description: A demo domain.\ncache: { ttl: 0 }\n').replace(
          '    default_order: name asc\n',
          '    default_order: name asc\n    cache: { stale_while_revalidate: 30 }\n',
        ),
      },
      /demo\.yaml:11:\d+: resources\.things\.cache\.stale_while_revalidate: stale_while_revalidate extends the TTL, and the TTL here is 0 \(not cached\)/,
    ],
    [
      "a many2one's name without its id",
      withLine("      owner_id: { type: integer, description: Owner's id., erp: { many2one: owner_id, comodel: res.users } }\n", ''),
      /demo\.yaml:14:\d+: resources\.things\.fields\.owner: field 'owner' gives the name of a res\.users record without its id: add 'owner_id: \{ type: integer, description: \.\.\., erp: \{ many2one: owner_id, comodel: res\.users \} \}' beside it, so that joins never go by name/,
    ],
    [
      "an x2many's names without their ids",
      withLine('      total:', '      tags: { type: array, items: string, description: Tags., erp: { x2many: tag_ids, comodel: demo.tag } }\n      total:'),
      /demo\.yaml:15:\d+: resources\.things\.fields\.tags: field 'tags' gives names of demo\.tag records without their ids/,
    ],
    [
      'a value read through a many2one whose id is not given',
      withLine('      total:', '      mail: { type: string, description: Mail., erp: { related: [partner_id, email], comodel: res.partner } }\n      total:'),
      /demo\.yaml:15:\d+: resources\.things\.fields\.mail: field 'mail' is read through the many2one 'partner_id', whose id the resource does not give/,
    ],
    [
      'an array without its item type',
      withLine('name: { type: string, description: Name., erp: name }', 'name: { type: array, description: Name., erp: name }'),
      /demo\.yaml:12:\d+: resources\.things\.fields\.name\.type: field 'name': arrays need 'items'/,
    ],
  ])('reports %s', (_name, files, pattern) => {
    const found = problems(files);
    expect(found.join('\n')).toMatch(pattern);
  });

  it.each([
    [
      'a misspelt key',
      withLine('    model: demo.thing\n', '    modle: demo.thing\n'),
      /demo\.yaml:8:5: resources\.things\.modle: unknown key 'modle'; allowed: did you mean 'model'\? title, description/,
    ],
    [
      'a misspelt type',
      withLine('type: integer, description: Identifier.', 'type: intger, description: Identifier.'),
      /resources\.things\.fields\.id\.type: 'intger' is not a value allowed here; allowed: did you mean 'integer'\? integer, string/,
    ],
    [
      'a filter on a misspelt field',
      withLine('name: { op: ilike, field: name }', 'name: { op: ilike, field: nmae }'),
      /resources\.things\.filters\.name\.field: .*; allowed: a field of this resource: did you mean 'name'\? id, name, state, owner, total/,
    ],
    [
      'a resource path that is not a URL segment',
      withLine('  things:\n', '  Things:\n'),
      /demo\.yaml:5:3: resources\.Things: the name 'Things' is not valid here; allowed: lowercase letters and digits, words joined by '-'/,
    ],
  ])('names the key and what is allowed, with the closest name to a typo: %s', (_name, files, pattern) => {
    expect(problems(files).join('\n')).toMatch(pattern);
  });

  it('suggests no name when none is close enough to be a typo', () => {
    expect(problems(withLine('    model: demo.thing\n', '    model: demo.thing\n    colour: blue\n')).join('\n')).not.toMatch(/did you mean/);
  });

  it("generates a resource's cache from its own keys over its domain's, and nothing when neither has one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    try {
      copyFileSync(join(root, 'catalogue', 'catalogue.schema.json'), join(dir, 'catalogue.schema.json'));
      copyFileSync(join(root, 'catalogue', 'api.yaml'), join(dir, 'api.yaml'));
      const two = VALID.replace('description: A demo domain.\n', 'description: A demo domain.\ncache: { ttl: 30, stale_while_revalidate: 60 }\n').replace(
        '    default_order: name asc\n',
        '    default_order: name asc\n    cache: { ttl: 5 }\n',
      );
      writeFileSync(join(dir, 'demo.yaml'), `${two}  others:\n${two.slice(two.indexOf('    title: Things')).replace('    cache: { ttl: 5 }\n', '')}`);
      writeFileSync(join(dir, 'plain.yaml'), VALID.replace('domain: demo', 'domain: plain'));
      const model = readCatalogue({ catalogueDir: dir, root: dir });
      const cacheOf = (path: string) => model.domains.flatMap((d) => d.resources).find((r) => r.path === path)?.cache;
      expect([cacheOf('demo/things'), cacheOf('demo/others'), cacheOf('plain/things')]).toEqual([
        { ttlSeconds: 5, staleSeconds: 60 },
        { ttlSeconds: 30, staleSeconds: 60 },
        undefined,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts a default order on an ERP field the resource does not expose once it is listed in order_only', () => {
    expect(problems(withLine('    default_order: name asc\n', '    default_order: sequence asc, name asc\n    order_only: [sequence]\n'))).toEqual([]);
  });

  it.each([
    ['one space too many', '       name:', /^demo\.yaml:12:8: 'name' is indented by 7 spaces, deeper than the line above allows/],
    ['one space too few', '     name:', /^demo\.yaml:12:6: 'name' is indented by 5 spaces: the keys around it use 6, and the map that holds them 4/],
    ['back at the level of the map above', '    name:', /^demo\.yaml:12:5: 'name' is indented by 4 spaces: the keys before and after it use 6/],
  ])('reports a key indented with %s on its own line, not on its neighbours', (_name, line, pattern) => {
    const found = problems(withLine('      name: { type: string', `${line} { type: string`));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(pattern);
  });

  it('reports an over-indented key of a block map on its line, not on the value above it', () => {
    const block = VALID.replace(
      '      name: { type: string, description: Name., erp: name }\n',
      '      name:\n        type: string\n         description: Name.\n        erp: name\n',
    );
    expect(problems({ 'demo.yaml': block })).toEqual([expect.stringMatching(/^demo\.yaml:14:10: 'description' is indented by 9 spaces/)]);
  });

  it('reports a domain defined twice, in a second file, as a duplicate route', () => {
    const found = problems({ 'demo.yaml': VALID, 'other.yaml': VALID });
    expect(found.join('\n')).toMatch(/other\.yaml:1:\d+: domain: domain 'demo' must match the file name 'other\.yaml'/);
  });

  it('reports every problem of a run at once', () => {
    const broken = VALID.replace('model: demo.thing', 'model: demo.thing\n    colour: blue').replace(
      'type: integer, description: Identifier.',
      'type: int, description: Identifier.',
    );
    expect(problems({ 'demo.yaml': broken }).length).toBe(2);
  });

  it.each([
    ['a version that is not MAJOR.MINOR.PATCH', 'version: 1.0\n', /^api\.yaml:1:10: version: 1\.0 is not a semantic version; allowed: MAJOR\.MINOR\.PATCH, such as 1\.0\.0$/],
    ['a key other than version', 'version: 1.0.0\nprefix: v1\n', /^api\.yaml:2:1: prefix: unknown key 'prefix'; allowed: version/],
  ])("reports the API version file's mistake: %s", (_name, text, pattern) => {
    expect(problems({ 'demo.yaml': VALID, 'api.yaml': text })).toEqual([expect.stringMatching(pattern)]);
  });

  it('reads api.yaml and acknowledged-changes.yaml as what they are, not as domains', () => {
    expect(problems({ 'demo.yaml': VALID, 'acknowledged-changes.yaml': 'acknowledged: []\n' })).toEqual([]);
  });
});
