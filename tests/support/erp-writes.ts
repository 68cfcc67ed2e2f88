/**
 * Writes into the sandbox ERP's database as Odoo's ORM does (the sandbox, like the gateway, serves
 * reads only): a `write` stamps `write_date` with the time in whole seconds, UTC, as Odoo 19 stores
 * it; a `create` copies a record (a new id) and stamps both dates; an `unlink` deletes it. For the
 * change-feed suites: the records written (and deleted) between a client's calls.
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

/** An ERP datetime, `YYYY-MM-DD HH:MM:SS` (UTC, whole seconds). */
export function erpDatetime(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
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
    this.db.prepare(`UPDATE "${table(model)}" SET ${sets} WHERE id = ?`).run(...names.map((name) => vals[name] as SQLInputValue), erpDatetime(at), id);
  }

  /** `model.create(...)` of a copy of record `id` with `vals`; its new id. */
  copy(model: string, id: number, vals: Readonly<Record<string, SQLInputValue>>, at = new Date()): number {
    const columns = (this.db.prepare(`PRAGMA table_info("${table(model)}")`).all() as { name: string }[]).map((c) => c.name).filter((name) => name !== 'id');
    const stamp = erpDatetime(at);
    const values = columns.map((name) => (name in vals ? '?' : name === 'create_date' || name === 'write_date' ? `'${stamp}'` : `"${name}"`));
    const result = this.db
      .prepare(`INSERT INTO "${table(model)}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${values.join(', ')} FROM "${table(model)}" WHERE id = ?`)
      .run(...columns.filter((name) => name in vals).map((name) => vals[name] as SQLInputValue), id);
    return Number(result.lastInsertRowid);
  }

  /** `model.unlink()` of one record: its row, and its rows in its model's many2many relation tables. */
  delete(model: string, id: number): void {
    const relations = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '!'`).all(`${table(model).replace(/_/g, '!_')}!_%!_rel`) as {
      name: string;
    }[];
    for (const { name } of relations) this.db.prepare(`DELETE FROM "${name}" WHERE a = ?`).run(id);
    this.db.prepare(`DELETE FROM "${table(model)}" WHERE id = ?`).run(id);
  }

  close(): void {
    this.db.close();
  }
}

function table(model: string): string {
  return model.replace(/\./g, '_');
}
