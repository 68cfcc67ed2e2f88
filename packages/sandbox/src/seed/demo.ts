/**
 * @module Demo data for every model of the registry: models in dependency order (many2one targets
 * first; a cycle leaves the back edge empty and fills it at the end), `demoRows` rows each, then
 * many2many links, the seeded users on the first `res_users` rows, and the security tables.
 */
import type { StatementSync } from 'node:sqlite';
import type { ModelInfo, Registry } from '../orm/registry';
import type { Database } from '../store/database';
import { quoteIdent } from '../store/naming';
import { createRandom } from './prng';
import { planRows, type Row, type SeedState, type Value } from './rows';
import { SEEDED_USERS, seedSecurity } from './security';

export function seedDemoData(db: Database, registry: Registry, seed: number): SeedState {
  const state: SeedState = { registry, seed, rows: new Map(), seeded: new Set(), deferred: [], used: new Map() };
  for (const model of seedOrder(registry)) {
    const plan = planRows(state, model);
    const insert = prepareInsert(db, model, plan.columns);
    const random = createRandom(seed, model.name);
    const rows: Row[] = [];
    state.rows.set(model.name, rows);
    const count = model.name === 'res.users' ? Math.max(model.demoRows, SEEDED_USERS.length) : model.demoRows;
    for (let index = 0; index < count; index++) {
      const values = plan.build(index, random, fixedRow(model, index));
      insert.run(values);
      rows.push(Object.fromEntries(plan.columns.map((column, i) => [column, values[i] ?? null])));
    }
    state.seeded.add(model.name);
  }
  fillDeferred(db, state);
  for (const model of registry.models.values()) linkMany2many(db, state, model, 3);
  seedSecurity(db, registry, state.rows.get('res.users')?.length ?? 0);
  return state;
}

/** Insert statement of a model's table for the given columns. */
export function prepareInsert(db: Database, model: ModelInfo, columns: readonly string[]): { run(values: readonly Value[]): void } {
  const statement: StatementSync = db.prepare(`INSERT INTO ${quoteIdent(model.table)} (${columns.map(quoteIdent).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return { run: (values) => statement.run(...values) };
}

/** The seeded users take the first rows of `res_users`. */
function fixedRow(model: ModelInfo, index: number): Row | undefined {
  if (model.name !== 'res.users') return undefined;
  const user = SEEDED_USERS[index];
  return user && { login: user.login, name: user.name, active: user.active ? 1 : 0, tz: user.tz };
}

/**
 * Models with their many2one targets first (depth-first, in registry order). An edge closing a
 * cycle is ignored here: `buildRow` leaves it empty and `fillDeferred` fills it.
 */
function seedOrder(registry: Registry): ModelInfo[] {
  const order: ModelInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (model: ModelInfo) => {
    if (state.has(model.name)) return;
    state.set(model.name, 'visiting');
    for (const target of dependencies(model)) {
      const comodel = registry.get(target);
      if (comodel && comodel.name !== model.name && state.get(comodel.name) !== 'visiting') visit(comodel);
    }
    state.set(model.name, 'done');
    order.push(model);
  };
  for (const model of registry.models.values()) visit(model);
  return order;
}

function dependencies(model: ModelInfo): string[] {
  const targets: string[] = [];
  for (const field of model.fields.values()) {
    if (field.type === 'many2one' && field.store && !field.magic) targets.push(field.relation!);
    const demo = field.def?.demo;
    const usesDistribution = (demo && 'gen' in demo && demo.gen === 'distribution') || (field.type === 'json' && field.name.includes('distribution'));
    if (usesDistribution) targets.push('account.analytic.account');
  }
  return targets;
}

/** Back edges of dependency cycles: random targets now that every model has rows. */
function fillDeferred(db: Database, state: SeedState): void {
  for (const { model: modelName, field: fieldName } of state.deferred) {
    const model = state.registry.require(modelName);
    const field = model.fields.get(fieldName)!;
    const targets = state.rows.get(field.relation!)?.length ?? 0;
    if (!targets) continue;
    const random = createRandom(state.seed, modelName, fieldName, 'deferred');
    const update = db.prepare(`UPDATE ${quoteIdent(model.table)} SET ${quoteIdent(fieldName)} = ? WHERE "id" = ?`);
    // A field required since the demo data was made draws its former share and fills those rows too.
    const former = field.required ? field.def?.emptyBeforeRequired : undefined;
    const share = former ?? (field.required ? 0 : (field.def?.empty ?? 0.05));
    for (const row of state.rows.get(modelName) ?? []) {
      if (row[fieldName] !== null && row[fieldName] !== undefined) continue;
      const drawn = random.chance(share);
      const value =
        drawn && former === undefined ? null : drawn ? createRandom(state.seed, modelName, fieldName, 'filled', String(row['id'])).int(1, targets) : random.int(1, targets);
      row[fieldName] = value;
      update.run(value, row['id']!);
    }
  }
}

/** One to `max` distinct comodel rows per row, for every many2many field of the model. */
export function linkMany2many(db: Database, state: SeedState, model: ModelInfo, max: number, fromId = 1, toId?: number): void {
  for (const field of model.fields.values()) {
    if (field.type !== 'many2many') continue;
    const targets = state.rows.get(field.relation!)?.length ?? 0;
    if (!targets) continue;
    const insert = db.prepare(`INSERT INTO ${quoteIdent(field.relationTable!)} ("a", "b") VALUES (?, ?)`);
    const hint = field.def?.demo;
    if (hint && 'links' in hint) {
      hint.links.forEach((ids, i) => {
        if (i + 1 >= fromId && i + 1 <= (toId ?? Infinity)) for (const target of ids) insert.run(i + 1, target);
      });
      continue;
    }
    const random = createRandom(state.seed, model.name, field.name, String(fromId));
    const last = toId ?? state.rows.get(model.name)?.length ?? 0;
    for (let id = fromId; id <= last; id++) {
      const count = random.int(1, Math.min(max, targets));
      const chosen = new Set<number>();
      while (chosen.size < count) chosen.add(random.int(1, targets));
      for (const target of chosen) insert.run(id, target);
    }
  }
}
