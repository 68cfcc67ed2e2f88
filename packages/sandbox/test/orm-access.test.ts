/**
 * Access rights through `Orm.call`: model ACLs, fields that need another model, x2many comodels,
 * refused writes, and the identity and permission probes of each version (reference section 7).
 */
import { ADMIN_UID, GATEWAY_UID, NO_FLEET_UID, createSandboxSet, type Sandbox, type SandboxSet } from './orm-fixture';
import type { OdooVersion } from '../src/orm/types';

/** A demo user given read right on event.event only (not on its registrations). */
const EVENT_ONLY_UID = 10;

let set: SandboxSet;
const boxes = {} as Record<OdooVersion, Sandbox>;

beforeAll(() => {
  set = createSandboxSet((sql) => {
    sql(`INSERT INTO res_groups (id, name, category, xml_id) VALUES (100, 'Events only', NULL, 'test.group_events_only')`);
    sql(`INSERT INTO ir_model_access (name, model, group_id, perm_read) VALUES ('events', 'event.event', 100, 1)`);
    sql(`INSERT INTO res_groups_users_rel (gid, uid) VALUES (100, ${EVENT_ONLY_UID})`);
  });
  for (const version of [17, 18, 19] as const) boxes[version] = set.open(version);
});
afterAll(() => set.cleanup());

const V = [17, 18, 19] as const;

const ODOMETER_DENIED = [
  "You are not allowed to access 'Odometer log for a vehicle' (fleet.vehicle.odometer) records.",
  '',
  'This operation is allowed for the following groups:',
  '\t- Ops API/Administrator reader',
  '',
  'Contact your administrator to request access if necessary.',
].join('\n');

describe('model access', () => {
  for (const version of V) {
    test(`${version} search, read and count need read right on the model`, () => {
      const error = boxes[version].error('fleet.vehicle.odometer', 'search_read', [[]], {}, { uid: GATEWAY_UID });
      expect([error.exceptionName, error.message]).toEqual(['odoo.exceptions.AccessError', ODOMETER_DENIED]);
      expect(boxes[version].error('fleet.vehicle.odometer', 'search_count', [[]], {}, { uid: GATEWAY_UID }).message).toBe(ODOMETER_DENIED);
      expect(boxes[version].error('fleet.vehicle.odometer', 'read', [['value']], {}, { uid: GATEWAY_UID, ids: [1] }).message).toBe(ODOMETER_DENIED);
      const vehicles = boxes[version].error('fleet.vehicle', 'search', [[]], {}, { uid: NO_FLEET_UID });
      expect(vehicles.message).toContain("You are not allowed to access 'Vehicle' (fleet.vehicle) records.");
      expect(vehicles.message).toContain('\t- Ops API/Administrator reader\n\t- Ops API/Data reader\n');
      expect(boxes[version].call('fleet.vehicle.odometer', 'search_count', [[]], {}, { uid: ADMIN_UID })).toBeGreaterThan(0);
    });

    test(`${version} a field computed from a model the user cannot read fails the whole call`, () => {
      const all = boxes[version].error('fleet.vehicle', 'search_read', [[['id', '<', 5]]], {}, { uid: GATEWAY_UID });
      expect(all.message).toBe(ODOMETER_DENIED);
      expect(boxes[version].error('fleet.vehicle', 'read', [['license_plate', 'odometer']], {}, { uid: GATEWAY_UID, ids: [1] }).message).toBe(ODOMETER_DENIED);
      const others = boxes[version].call('fleet.vehicle', 'search_read', [[['id', '<', 5]], ['license_plate', 'model_id']], {}, { uid: GATEWAY_UID });
      expect((others as unknown[]).length).toBeGreaterThan(0);
      // nothing to compute, nothing to refuse
      expect(boxes[version].call('fleet.vehicle', 'search_read', [[['id', '<', 0]]], {}, { uid: GATEWAY_UID })).toEqual([]);
    });

    test(`${version} an x2many field needs read right on its comodel`, () => {
      const rows = boxes[version].call('event.event', 'search_read', [[], ['name']], { limit: 1 }, { uid: EVENT_ONLY_UID }) as { id: number }[];
      const error = boxes[version].error('event.event', 'read', [['registration_ids']], {}, { uid: EVENT_ONLY_UID, ids: [rows[0]!.id] });
      expect(error.exceptionName).toBe('odoo.exceptions.AccessError');
      const denied = "You are not allowed to access 'Event Registration' (event.registration) records.";
      const expected = version >= 19 ? `Failed to read field event.event.registration_ids\n${denied}` : denied;
      expect(error.message.startsWith(expected)).toBe(true);
      expect(error.message).toContain('\t- Ops API/Data reader (no fleet)\n');
    });
  }
});

describe('writes are refused at the rights level', () => {
  for (const version of V) {
    test(`${version} create, write, unlink, copy and actions`, () => {
      const box = boxes[version];
      const cases: [string, unknown[], string][] = [
        ['create', [{ name: 'x' }], "You are not allowed to create 'Vehicle' (fleet.vehicle) records."],
        ['write', [{ name: 'x' }], "You are not allowed to modify 'Vehicle' (fleet.vehicle) records."],
        ['unlink', [], "You are not allowed to delete 'Vehicle' (fleet.vehicle) records."],
        ['copy', [], "You are not allowed to create 'Vehicle' (fleet.vehicle) records."],
        ['action_archive', [], "You are not allowed to modify 'Vehicle' (fleet.vehicle) records."],
        ['action_confirm', [1, 2], "You are not allowed to modify 'Vehicle' (fleet.vehicle) records."],
      ];
      for (const [method, args, header] of cases) {
        const error = box.error('fleet.vehicle', method, args, {}, { uid: ADMIN_UID, ids: [1] });
        expect([method, error.exceptionName, error.message.split('\n')[0]]).toEqual([method, 'odoo.exceptions.AccessError', header]);
        expect(error.message).toContain('No group currently allows this operation.');
      }
      expect(box.call('fleet.vehicle', 'write', [{ name: 'x' }], {}, { ids: [] })).toBe(true);
      expect(box.call('fleet.vehicle', 'unlink', [], {}, { ids: [] })).toBe(true);
      expect(box.error('fleet.vehicle', 'copy', [], {}, { ids: [1, 2] }).message).toBe('Expected singleton: fleet.vehicle(1, 2)');
    });
  }
});

describe('permission probes (reference 7.3)', () => {
  test('17: check_access_rights answers true, false or raises', () => {
    expect(boxes[17].call('fleet.vehicle', 'check_access_rights', ['read'], {}, { uid: GATEWAY_UID })).toBe(true);
    expect(boxes[17].call('fleet.vehicle', 'check_access_rights', ['read'], { raise_exception: false }, { uid: NO_FLEET_UID })).toBe(false);
    expect(boxes[17].error('fleet.vehicle', 'check_access_rights', ['write'], {}, { uid: GATEWAY_UID }).exceptionName).toBe('odoo.exceptions.AccessError');
    expect(boxes[17].handle.orm.lookupMethod('fleet.vehicle', 'has_access')).toBeUndefined();
  });

  for (const version of [18, 19] as const) {
    test(`${version}: has_access, and check_access_rights returning None when it does not raise`, () => {
      const box = boxes[version];
      expect(box.call('fleet.vehicle', 'check_access_rights', ['read'], {}, { uid: GATEWAY_UID })).toBeNull();
      expect(box.call('fleet.vehicle', 'check_access_rights', ['read', false], {}, { uid: NO_FLEET_UID })).toBe(false);
      expect(box.call('fleet.vehicle', 'check_access_rights', ['read', false], {}, { uid: GATEWAY_UID })).toBe(true);
      expect(box.call('fleet.vehicle', 'has_access', ['read'], {}, { uid: GATEWAY_UID, ids: [] })).toBe(true);
      expect(box.call('fleet.vehicle', 'has_access', ['read'], {}, { uid: NO_FLEET_UID, ids: [1] })).toBe(false);
      expect(box.call('fleet.vehicle', 'has_access', ['unlink'], {}, { uid: ADMIN_UID, ids: [] })).toBe(false);
    });
  }

  test('check_access: public in 18 (None or AccessError), private in 19', () => {
    expect(boxes[18].call('fleet.vehicle', 'check_access', ['read'], {}, { uid: GATEWAY_UID, ids: [] })).toBeNull();
    expect(boxes[18].error('fleet.vehicle', 'check_access', ['read'], {}, { uid: NO_FLEET_UID, ids: [] }).exceptionName).toBe('odoo.exceptions.AccessError');
    expect(boxes[19].handle.orm.lookupMethod('fleet.vehicle', 'check_access')).toBe('private');
  });
});

describe('identity probes (reference 7.1, 7.2)', () => {
  test('context_get: lang, tz and uid of the caller', () => {
    for (const version of V) {
      expect(boxes[version].call('res.users', 'context_get', [], {}, { uid: ADMIN_UID })).toEqual({ lang: 'en_US', tz: 'Europe/Paris', uid: ADMIN_UID });
      expect(boxes[version].call('res.users', 'context_get', [], {}, { uid: GATEWAY_UID })).toEqual({ lang: 'en_US', tz: false, uid: GATEWAY_UID });
    }
  });

  test('17: has_group is @api.model on the calling user; ids break it', () => {
    expect(boxes[17].call('res.users', 'has_group', ['ops_api.group_api_user'], {}, { uid: GATEWAY_UID })).toBe(true);
    expect(boxes[17].call('res.users', 'has_group', ['ops_api.group_api_user'], {}, { uid: ADMIN_UID })).toBe(false);
    const error = boxes[17].error('res.users', 'has_group', [[GATEWAY_UID], 'base.group_user'], {}, { uid: GATEWAY_UID });
    expect([error.exceptionName, error.message]).toEqual(['builtins.TypeError', 'Users.has_group() takes 2 positional arguments but 3 were given']);
  });

  for (const version of [18, 19] as const) {
    test(`${version}: has_group is a singleton record method`, () => {
      const box = boxes[version];
      expect(box.call('res.users', 'has_group', ['ops_api.group_api_user'], {}, { uid: GATEWAY_UID, ids: [GATEWAY_UID] })).toBe(true);
      expect(box.call('res.users', 'has_group', ['ops_api.group_api_user'], {}, { uid: GATEWAY_UID, ids: [ADMIN_UID] })).toBe(false);
      expect(box.call('res.users', 'has_group', [], { group_ext_id: 'base.group_system' }, { uid: ADMIN_UID, ids: [ADMIN_UID] })).toBe(true);
      const empty = box.error('res.users', 'has_group', ['base.group_user'], {}, { uid: GATEWAY_UID, ids: [] });
      expect([empty.exceptionName, empty.message]).toEqual(['builtins.ValueError', 'Expected singleton: res.users()']);
      expect(box.call('res.users', 'has_groups', ['base.group_user,!base.group_system'], {}, { uid: GATEWAY_UID, ids: [GATEWAY_UID] })).toBe(true);
      expect(box.call('res.users', 'has_groups', ['base.group_user,!base.group_system'], {}, { uid: ADMIN_UID, ids: [ADMIN_UID] })).toBe(false);
    });
  }
});
