/**
 * Writes into the sandbox ERP's database as Odoo's ORM does (the sandbox, like the gateway, serves
 * reads only): a `write` stamps `write_date` with the time, UTC, fractions of a second included, as
 * Odoo 17–19 store their transaction's timestamp (answered cut to the second); a `create` copies a
 * record (a new id) and stamps both dates. For the change-feed suites: the records written between a
 * client's calls.
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

/** An ERP datetime as answered, `YYYY-MM-DD HH:MM:SS` (UTC, whole seconds). */
export function erpDatetime(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/** An ERP datetime as stored: with its milliseconds as microseconds, when it has any (PostgreSQL's `timestamp`). */
function storedDatetime(at: Date): string {
  const ms = at.getUTCMilliseconds();
  return ms ? `${erpDatetime(at)}.${String(ms).padStart(3, '0')}000` : erpDatetime(at);
}

export class ErpWriter {
  private readonly db: DatabaseSync;

  constructor(dbPath: string) {
    this.db = new DatabaseSync(dbPath);
    this.db.exec('PRAGMA busy_timeout = 5000;');
  }

  /** `model.write(vals)` on one record, at `at` (now by default). */
  write(model: string, id: number, vals: Readonly<Record<string, SQLInputValue>>, at = new Date()): void {
    const names = Object.keys(vals);
    const sets = [...names.map((name) => `"${name}" = ?`), 'write_date = ?'].join(', ');
    this.db.prepare(`UPDATE "${table(model)}" SET ${sets} WHERE id = ?`).run(...names.map((name) => vals[name] as SQLInputValue), storedDatetime(at), id);
  }

  /** `model.create(...)` of a copy of record `id` with `vals`; its new id. */
  copy(model: string, id: number, vals: Readonly<Record<string, SQLInputValue>>, at = new Date()): number {
    const columns = (this.db.prepare(`PRAGMA table_info("${table(model)}")`).all() as { name: string }[]).map((c) => c.name).filter((name) => name !== 'id');
    const stamp = storedDatetime(at);
    const values = columns.map((name) => (name in vals ? '?' : name === 'create_date' || name === 'write_date' ? `'${stamp}'` : `"${name}"`));
    const result = this.db
      .prepare(`INSERT INTO "${table(model)}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${values.join(', ')} FROM "${table(model)}" WHERE id = ?`)
      .run(...columns.filter((name) => name in vals).map((name) => vals[name] as SQLInputValue), id);
    return Number(result.lastInsertRowid);
  }

  /**
   * An administrator's `ir.model.access.write({'perm_read': allowed})` on the access row that gives
   * `group` (an external id) read right on `model`: the right taken away or given back. The sandbox
   * sees it on its next call, as Odoo does once such a write clears its access cache.
   */
  setReadRight(group: string, model: string, allowed: boolean): void {
    const { changes } = this.db
      .prepare('UPDATE "ir_model_access" SET "perm_read" = ? WHERE "model" = ? AND "group_id" = (SELECT "id" FROM "res_groups" WHERE "xml_id" = ?)')
      .run(allowed ? 1 : 0, model, group);
    if (changes !== 1) throw new Error(`no access row of ${group} on ${model}`);
  }

  close(): void {
    this.db.close();
  }
}

function table(model: string): string {
  return model.replace(/\./g, '_');
}
