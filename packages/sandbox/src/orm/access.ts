/**
 * @module Model-level access rights (`ir.model.access`) and group membership, read from the
 * security tables and cached per user. The sandbox never writes them itself, but another connection
 * may (a test standing in for an administrator who takes a right away and gives it back, as Odoo's
 * `ir.model.access.write` does): the cache is dropped whenever the database changed since it was
 * filled (`PRAGMA data_version`, which moves on every commit of another connection), so a changed
 * right counts on the next call, as Odoo clears its access cache on such a write.
 */
import type { Database } from '../store/database';
import { StatementCache } from '../store/statements';
import { modelAccessError, type Operation } from './errors';
import type { Registry } from './registry';
import { raw, sql, param } from './sql';

export class AccessControl {
  private readonly statements: StatementCache;
  private readonly allowed = new Map<string, ReadonlySet<string>>();
  private readonly groups = new Map<number, ReadonlySet<string>>();
  /** `data_version` when the caches were filled. */
  private dataVersion: unknown;

  constructor(
    db: Database,
    private readonly registry: Registry,
  ) {
    this.statements = new StatementCache(db);
  }

  /** Whether `uid` holds `operation` on `model` through one of its groups (or a global rule). */
  has(uid: number, model: string, operation: Operation): boolean {
    return this.allowedModels(uid, operation).has(model);
  }

  /** Raises Odoo's AccessError when `uid` lacks `operation` on `model`. */
  check(uid: number, model: string, operation: Operation): void {
    if (this.has(uid, model, operation)) return;
    const description = this.registry.get(model)?.description ?? model;
    throw modelAccessError(operation, model, description, this.groupNamesWithAccess(model, operation));
  }

  /** External ids (`base.group_user`) of the groups of `uid`. */
  userGroups(uid: number): ReadonlySet<string> {
    this.dropIfChanged();
    let groups = this.groups.get(uid);
    if (!groups) {
      const rows = this.statements.all<{ xml_id: string }>(
        sql`SELECT g."xml_id" FROM "res_groups" g JOIN "res_groups_users_rel" r ON r."gid" = g."id" WHERE r."uid" = ${param(uid)}`,
      );
      groups = new Set(rows.map((r) => r.xml_id));
      this.groups.set(uid, groups);
    }
    return groups;
  }

  hasGroup(uid: number, xmlId: string): boolean {
    return this.userGroups(uid).has(xmlId);
  }

  /** Forget cached rights, after the security tables changed. */
  clear(): void {
    this.allowed.clear();
    this.groups.clear();
  }

  /** Drops the cached rights when another connection has changed the database since they were read. */
  private dropIfChanged(): void {
    const version = this.statements.get<{ data_version: number }>(sql`PRAGMA data_version`)?.data_version;
    if (version === this.dataVersion) return;
    this.clear();
    this.dataVersion = version;
  }

  private allowedModels(uid: number, operation: Operation): ReadonlySet<string> {
    this.dropIfChanged();
    const key = `${uid}:${operation}`;
    let models = this.allowed.get(key);
    if (!models) {
      const rows = this.statements.all<{ model: string }>(
        sql`SELECT DISTINCT a."model" FROM "ir_model_access" a
             WHERE a.${raw(`"perm_${operation}"`)} = 1
               AND (a."group_id" IS NULL OR a."group_id" IN (SELECT r."gid" FROM "res_groups_users_rel" r WHERE r."uid" = ${param(uid)}))`,
      );
      models = new Set(rows.map((r) => r.model));
      this.allowed.set(key, models);
    }
    return models;
  }

  /** `Category/Group` names, as Odoo lists them in the error (ordered by category, then name). */
  private groupNamesWithAccess(model: string, operation: Operation): string[] {
    const rows = this.statements.all<{ category: string | null; name: string }>(
      sql`SELECT g."category", g."name" FROM "ir_model_access" a JOIN "res_groups" g ON g."id" = a."group_id"
           WHERE a."model" = ${param(model)} AND a.${raw(`"perm_${operation}"`)} = 1
           ORDER BY g."category" IS NULL, g."category", g."name"`,
    );
    return rows.map((r) => (r.category ? `${r.category}/${r.name}` : r.name));
  }
}
