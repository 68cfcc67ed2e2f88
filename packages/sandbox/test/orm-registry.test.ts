/**
 * The model registry: the twelve model files load and validate, magic fields are added, and
 * invalid definitions are reported all at once.
 */
import { MODEL_SOURCES, loadRegistry } from '../src/models';
import { buildRegistry, defaultLabel, validateDefinitions } from '../src/orm/registry';
import type { ModelDef } from '../src/orm/model-def';

describe(loadRegistry.name, () => {
  test('loads every model file, with the magic fields', () => {
    const registry = loadRegistry();
    expect(MODEL_SOURCES).toHaveLength(13);
    expect(registry.models.size).toBe(MODEL_SOURCES.flat().length);
    const vehicle = registry.require('fleet.vehicle');
    expect(vehicle.table).toBe('fleet_vehicle');
    for (const name of ['id', 'display_name', 'create_date', 'write_date', 'create_uid', 'write_uid']) {
      expect(vehicle.fields.get(name)?.magic).toBe(true);
    }
    expect(vehicle.fields.get('create_uid')?.relation).toBe('res.users');
    expect(vehicle.columns[0]?.name).toBe('id');
    expect(vehicle.columns.some((f) => f.name === 'odometer' || f.name === 'display_name')).toBe(false);
    expect(vehicle.hasActive).toBe(true);
    expect(registry.require('space.site').parentField).toBe('parent_id');
  });

  test('display_name: own expression, rec name, many2one rec name, or "<model>,<id>"', () => {
    const registry = loadRegistry();
    expect(registry.require('res.partner').displayNameSql).toBe(`NULLIF(t."complete_name", '')`);
    expect(registry.require('it.consumable.move').displayNameSql).toBe(`'it.consumable.move,' || t."id"`);
    expect(registry.require('fleet.vehicle.log.services').displayNameSql).toContain('FROM "fleet_service_type" _rn1');
  });
});

describe(validateDefinitions.name, () => {
  const model = (name: string, fields: ModelDef['fields'], extra: Partial<ModelDef> = {}): ModelDef => ({ name, description: name, demoRows: 1, fields, ...extra });

  test('reports every problem with its model and field', () => {
    const problems = validateDefinitions([
      model(
        'a.one',
        {
          b_id: { type: 'many2one', relation: 'x.missing' },
          line_ids: { type: 'one2many', relation: 'a.two', inverse: 'nope' },
          kind: { type: 'selection', selection: [] },
          id: { type: 'integer' },
        },
        { order: 'ghost desc', recName: 'title' },
      ),
      model('a.two', { one_id: { type: 'many2one', relation: 'a.one' }, copy_of: { type: 'char', demo: { copy: 'one_id.missing' } } }),
    ]);
    expect(problems).toEqual([
      "a.one.b_id: relation 'x.missing' is not a defined model",
      "a.one.line_ids: inverse 'nope' is not a field of a.two",
      'a.one.kind: selection without values',
      'a.one.id: reserved name (added by the registry)',
      "a.one: recName 'title' is not a field",
      "a.one: order field 'ghost' is not a field",
      "a.two.copy_of: demo.copy 'one_id.missing': 'missing' is not a field of a.one",
    ]);
    expect(() => buildRegistry([model('a.one', { kind: { type: 'selection' } })])).toThrow(/Invalid sandbox model definitions:\n {2}- a\.one\.kind: selection without values/);
  });
});

test(`${defaultLabel.name} follows Odoo`, () => {
  expect([defaultLabel('license_plate'), defaultLabel('model_id'), defaultLabel('user_ids'), defaultLabel('vin_sn')]).toEqual(['License Plate', 'Model', 'User', 'Vin Sn']);
});
