/**
 * @module The sandbox's fixed security: groups, model access rows and the users the gateway and
 * the tests log in with. Membership of `ops_api.group_api_user` is what the gateway checks;
 * reading rights come from the `*_reader` groups; nobody may write, create or delete.
 */
import type { Database } from '../store/database';
import type { Registry } from '../orm/registry';

/** The gateway's service account: API group, reads everything but the odometer log. */
export const GATEWAY_LOGIN = 'gateway-api';
/** Administrator: reads everything, but is not in the API group. */
export const ADMIN_LOGIN = 'admin';
/** API user without read right on vehicles and their odometer log. */
export const NO_FLEET_LOGIN = 'gateway-noread';

export const API_GROUP = 'ops_api.group_api_user';

export interface SeededUser {
  readonly id: number;
  readonly login: string;
  readonly name: string;
  readonly active: boolean;
  readonly tz: string | null;
  readonly groups: readonly string[];
}

/**
 * The first rows of `res_users`, in id order (OdooBot is uid 1 and archived, as in Odoo; the
 * administrator is uid 2). Demo users follow.
 */
export const SEEDED_USERS: readonly SeededUser[] = [
  { id: 1, login: '__system__', name: 'OdooBot', active: false, tz: null, groups: ['base.group_user', 'base.group_system'] },
  {
    id: 2,
    login: ADMIN_LOGIN,
    name: 'Administrator',
    active: true,
    tz: 'Europe/Paris',
    groups: ['base.group_user', 'base.group_system', 'ops_api.group_admin_reader'],
  },
  {
    id: 3,
    login: GATEWAY_LOGIN,
    name: 'Ops Data Gateway',
    active: true,
    tz: null,
    groups: ['base.group_user', API_GROUP, 'ops_api.group_data_reader'],
  },
  {
    id: 4,
    login: NO_FLEET_LOGIN,
    name: 'Gateway without fleet access',
    active: true,
    tz: null,
    groups: ['base.group_user', API_GROUP, 'ops_api.group_data_reader_no_fleet'],
  },
];

interface GroupDef {
  readonly xmlId: string;
  readonly name: string;
  readonly category: string;
  /** Models this group may read: all of them except these. */
  readonly readAllBut?: readonly string[];
}

const GROUPS: readonly GroupDef[] = [
  { xmlId: 'base.group_user', name: 'Internal User', category: 'User types' },
  { xmlId: 'base.group_system', name: 'Settings', category: 'Administration' },
  { xmlId: API_GROUP, name: 'API user', category: 'Ops API' },
  { xmlId: 'ops_api.group_data_reader', name: 'Data reader', category: 'Ops API', readAllBut: ['fleet.vehicle.odometer'] },
  {
    xmlId: 'ops_api.group_data_reader_no_fleet',
    name: 'Data reader (no fleet)',
    category: 'Ops API',
    readAllBut: ['fleet.vehicle', 'fleet.vehicle.odometer'],
  },
  { xmlId: 'ops_api.group_admin_reader', name: 'Administrator reader', category: 'Ops API', readAllBut: [] },
];

/** Groups, access rows, and the group memberships of the seeded users (demo users: internal). */
export function seedSecurity(db: Database, registry: Registry, userCount: number): void {
  const insertGroup = db.prepare('INSERT INTO "res_groups" ("id", "name", "category", "xml_id") VALUES (?, ?, ?, ?)');
  const insertAccess = db.prepare(
    'INSERT INTO "ir_model_access" ("name", "model", "group_id", "perm_read", "perm_write", "perm_create", "perm_unlink") VALUES (?, ?, ?, 1, 0, 0, 0)',
  );
  const insertMember = db.prepare('INSERT INTO "res_groups_users_rel" ("gid", "uid") VALUES (?, ?)');
  const groupIds = new Map<string, number>();
  GROUPS.forEach((group, i) => {
    groupIds.set(group.xmlId, i + 1);
    insertGroup.run(i + 1, group.name, group.category, group.xmlId);
    if (!group.readAllBut) return;
    for (const model of registry.models.keys()) {
      if (!group.readAllBut.includes(model)) insertAccess.run(`${model} ${group.xmlId}`, model, i + 1);
    }
  });
  for (const user of SEEDED_USERS) {
    for (const group of user.groups) insertMember.run(groupIds.get(group)!, user.id);
  }
  for (let uid = SEEDED_USERS.length + 1; uid <= userCount; uid++) insertMember.run(groupIds.get('base.group_user')!, uid);
}
