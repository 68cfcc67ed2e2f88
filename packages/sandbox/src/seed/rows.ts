/**
 * @module Demo rows of any model, from its fields' demo hints (or their type and name), with the
 * `empty` and `truthy` shares. A model's fields are planned once (producers in dependency order,
 * so `copy`, `after` and email hints see the values they use), then each row is a tight loop: the
 * same plan fills both the demo data and the million-row benchmarks.
 */
import type { DemoGenerator, DemoHint } from '../orm/model-def';
import type { FieldInfo, ModelInfo, Registry } from '../orm/registry';
import { USER_PREFERENCE_COLUMNS } from '../orm/schema';
import { generate, type GeneratorContext } from './generators';
import { createRandom, type Random } from './prng';

/** Reference date of `days` hints and of `create_date`: 2026-01-01T00:00:00Z. */
const REFERENCE_DATE = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

export type Value = string | number | null;

/** Values of one row by column name, as stored (booleans 0/1, json as text). */
export type Row = Record<string, Value>;

/** What the seeder knows while it fills the store. */
export interface SeedState {
  readonly registry: Registry;
  readonly seed: number;
  /** Demo rows kept in memory (row `i` has id `i + 1`): many2one targets and `copy` sources. */
  readonly rows: Map<string, Row[]>;
  /** Models whose demo rows exist: a many2one to another one is filled later (a cycle). */
  readonly seeded: Set<string>;
  /** Many2one fields left empty because their comodel came later. */
  readonly deferred: { model: string; field: string }[];
  /** Values already used, for the generators that must not repeat (emails). */
  readonly used: Map<string, Set<string>>;
}

export interface PlanOptions {
  /** Scaled rows: uniqueness by row number instead of remembered values. */
  readonly scaled?: boolean;
}

/** Builds rows of one model: `values` in `columns` order. */
export interface RowPlan {
  /** Stored columns (`id` first), plus the users' preference columns on `res_users`. */
  readonly columns: readonly string[];
  build(index: number, random: Random, fixed?: Row): Value[];
}

/** One row being built: values by column position, the row number and the random stream. */
interface RowContext {
  readonly values: Value[];
  index: number;
  random: Random;
}

type Producer = (row: RowContext) => Value;

export function planRows(state: SeedState, model: ModelInfo, options: PlanOptions = {}): RowPlan {
  const columns = model.columns.map((f) => f.name);
  if (model.name === 'res.users') columns.push(...USER_PREFERENCE_COLUMNS.filter((c) => !model.fields.has(c)));
  const position = new Map(columns.map((name, i) => [name, i]));
  const get = (name: string): ((row: RowContext) => Value) => {
    const i = position.get(name);
    return i === undefined ? () => null : (row) => row.values[i] ?? null;
  };
  const producers = columns.map((name) => {
    const field = model.fields.get(name);
    if (name === 'id') return (row: RowContext) => row.index + 1;
    return field ? producer(state, model, field, get, options) : () => null;
  });
  const order = evaluationOrder(model, columns);
  return {
    columns,
    build(index, random, fixed) {
      const row: RowContext = { values: new Array<Value>(columns.length).fill(null), index, random };
      const fixedAt = fixed ? columns.map((c) => (Object.hasOwn(fixed, c) ? fixed[c]! : undefined)) : undefined;
      for (const i of order) {
        const preset = fixedAt?.[i];
        row.values[i] = preset !== undefined ? preset : producers[i]!(row);
      }
      return row.values;
    },
  };
}

/** Column positions in an order where every field comes after the fields its hint reads. */
function evaluationOrder(model: ModelInfo, columns: readonly string[]): number[] {
  const position = new Map(columns.map((name, i) => [name, i]));
  const order: number[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.has(name) || !position.has(name)) return;
    state.set(name, 'visiting');
    for (const dep of dependencies(model.fields.get(name))) visit(dep);
    state.set(name, 'done');
    order.push(position.get(name)!);
  };
  columns.forEach(visit);
  return order;
}

function dependencies(field: FieldInfo | undefined): string[] {
  if (!field) return [];
  if (field.name === 'write_date' && field.magic) return ['create_date'];
  const hint = field.def?.demo;
  if (!hint) return field.type === 'char' && field.name.includes('email') ? ['name'] : [];
  if ('after' in hint) return [hint.after];
  if ('copy' in hint) return [hint.copy.split('.')[0]!];
  if ('gen' in hint && hint.gen === 'email') return ['name'];
  return [];
}

function producer(state: SeedState, model: ModelInfo, field: FieldInfo, get: (name: string) => (row: RowContext) => Value, options: PlanOptions): Producer {
  if (field.magic) return magicProducer(model, field, get);
  const whole = valueProducer(state, model, field, get, options);
  return field.def?.fractions ? withFraction(whole, saltOf(model, field)) : whole;
}

function valueProducer(state: SeedState, model: ModelInfo, field: FieldInfo, get: (name: string) => (row: RowContext) => Value, options: PlanOptions): Producer {
  const def = field.def!;
  const hint = def.demo;
  const make = (h: DemoHint | undefined) => (h ? hintProducer(state, model, field, h, get, options) : typeProducer(state, model, field, get, options));
  const main = make(hint);
  // A hint that found nothing (a copy through an empty many2one) falls back on the type for required fields.
  const value: Producer =
    field.required && hint
      ? (
          (fallback) => (row: RowContext) =>
            main(row) ?? fallback(row)
        )(make(undefined))
      : main;
  // The first rows cycle through every selection and pick value before any is left empty.
  const coverage = hint && 'pick' in hint ? hint.pick.length : field.type === 'selection' ? (field.selection?.length ?? 0) : 0;
  if (field.required && def.emptyBeforeRequired !== undefined) {
    const formerShare = def.emptyBeforeRequired;
    const own = (row: RowContext): RowContext => ({ ...row, random: createRandom(state.seed, model.name, field.name, 'filled', String(row.index)) });
    return (row) => (row.index >= coverage && row.random.chance(formerShare) ? value(own(row)) : value(row));
  }
  const share = def.empty ?? defaultEmptyShare(field);
  const produce: Producer = field.required || share <= 0 ? value : (row) => (row.index >= coverage && row.random.chance(share) ? null : value(row));
  if (!def.ownDemoStream) return produce;
  return (row) => produce({ ...row, random: createRandom(state.seed, model.name, field.name, 'own', String(row.index)) });
}

/** Booleans are rarely NULL in Odoo: never `active`, nor an always-true / always-false field. */
function defaultEmptyShare(field: FieldInfo): number {
  if (field.type !== 'boolean') return 0.05;
  const truthy = field.def?.truthy;
  return field.name === 'active' || truthy === 0 || truthy === 1 ? 0 : 0.05;
}

/** The second of the batch write that last touched a quarter of the records (two days before the reference date). */
const BATCH_WRITE_DATE = REFERENCE_DATE - 2 * 86_400_000;

/**
 * `create_date` over the year before the reference date, `write_date` after it (or at the batch
 * write), by the admin. Odoo stamps both with its transaction's timestamp, which has fractions of a
 * second (stored, never answered): so do these, and the records of the batch write share one.
 */
function magicProducer(model: ModelInfo, field: FieldInfo, get: (name: string) => (row: RowContext) => Value): Producer {
  const salt = saltOf(model, field);
  switch (field.name) {
    case 'create_date':
      return withFraction((row) => datetimeText(REFERENCE_DATE - row.random.int(0, 365 * 86_400) * 1000), salt, true);
    case 'write_date': {
      const created = get('create_date');
      const batch = `${datetimeText(BATCH_WRITE_DATE)}${fraction(0, salt)}`;
      return (row) => {
        const value = created(row);
        const start = typeof value === 'string' ? parseStored(value) : REFERENCE_DATE;
        const written = Math.min(REFERENCE_DATE, start + row.random.int(0, 30 * 86_400) * 1000);
        // Every fourth record was last written by one batch (a scheduled action, an import) in one
        // transaction, as on a real Odoo, where a module's data or a mass update shares its write_date:
        // readers that page by (write_date, id) meet many records of the same second.
        if (row.index % 4 === 3 && start <= BATCH_WRITE_DATE) return start === BATCH_WRITE_DATE && typeof value === 'string' && value > batch ? value : batch;
        // Never written since its creation: Odoo's `create` stamps both with the same timestamp.
        if (written === start && typeof value === 'string') return value;
        return `${datetimeText(written)}${fraction(row.index + 1, salt)}`;
      };
    }
    case 'create_uid':
    case 'write_uid':
      return () => 2;
    default:
      return () => null;
  }
}

function hintProducer(state: SeedState, model: ModelInfo, field: FieldInfo, hint: DemoHint, get: (name: string) => (row: RowContext) => Value, options: PlanOptions): Producer {
  if ('value' in hint) {
    const value = stored(field, hint.value);
    return () => value;
  }
  if ('pick' in hint) {
    const values = hint.pick.map((v) => stored(field, v));
    return (row) => values[row.index % values.length]!;
  }
  if ('int' in hint) {
    const [min, max] = hint.int;
    return (row) => row.random.int(min, max);
  }
  if ('float' in hint) {
    const [min, max] = hint.float;
    const digits = hint.float[2] ?? hint.digits ?? 2;
    return (row) => round(row.random.float(min, max), digits);
  }
  if ('days' in hint) {
    const [from, to] = [hint.days[0] * 86_400, hint.days[1] * 86_400];
    const text = field.type === 'date' ? dateText : datetimeText;
    return (row) => text(REFERENCE_DATE + row.random.int(from, to) * 1000);
  }
  if ('after' in hint) {
    const base = get(hint.after);
    const [from, to] = [hint.hours[0] * 3600, hint.hours[1] * 3600];
    const text = field.type === 'date' ? dateText : datetimeText;
    return (row) => {
      const value = base(row);
      return typeof value === 'string' ? text(parseStored(value) + row.random.int(from, to) * 1000) : null;
    };
  }
  if ('seq' in hint) {
    const prefix = hint.seq;
    return (row) => `${prefix}${String(row.index + 1).padStart(5, '0')}`;
  }
  if ('copy' in hint) return copyProducer(state, model, hint.copy, get);
  // Links of a many2many are made with the other links (`linkMany2many`), never as a column.
  if ('links' in hint) return () => null;
  const text = generatorProducer(state, model, field, hint.gen, get, options);
  return field.type === 'html' ? asHtml(text) : text;
}

/** A value of the field's type, guessed from its name when it is text. */
function typeProducer(state: SeedState, model: ModelInfo, field: FieldInfo, get: (name: string) => (row: RowContext) => Value, options: PlanOptions): Producer {
  const gen = (name: DemoGenerator) => generatorProducer(state, model, field, name, get, options);
  switch (field.type) {
    case 'char': {
      const name = field.name;
      if (name.includes('email')) return gen('email');
      if (name.includes('phone') || name.includes('mobile')) return gen('phone');
      if (name.includes('city')) return gen('city');
      if (name.includes('street') || name.includes('address')) return gen('street');
      if (name === 'code' || name.endsWith('_code') || name === 'ref') return gen('code');
      if (name.includes('name')) return gen('title');
      const label = field.string;
      return (row) => `${label} ${row.index + 1}`;
    }
    case 'text':
      return gen('sentence');
    case 'html':
      return asHtml(gen('sentence'));
    case 'integer':
      return (row) => row.random.int(0, 100);
    case 'float':
    case 'monetary': {
      const digits = field.digits ?? 2;
      return (row) => round(row.random.float(0, 1000), digits);
    }
    case 'boolean': {
      const truthy = field.def?.truthy ?? (field.name === 'active' ? 0.9 : 0.5);
      return (row) => (row.random.chance(truthy) ? 1 : 0);
    }
    case 'date':
    case 'datetime': {
      const text = field.type === 'date' ? dateText : datetimeText;
      return (row) => text(REFERENCE_DATE + row.random.int(-365 * 86_400, 365 * 86_400) * 1000);
    }
    case 'selection': {
      const keys = (field.selection ?? []).map(([key]) => key);
      return (row) => (keys.length ? keys[row.index % keys.length]! : null);
    }
    case 'many2one':
      return many2oneProducer(state, model, field, options);
    case 'json':
      if (field.name.includes('distribution')) return gen('distribution');
      return (row) => JSON.stringify({ value: row.random.int(1, 100) });
    default:
      return () => null;
  }
}

/**
 * A random demo row of the comodel (a self reference: an earlier row). A comodel not seeded yet
 * closes a dependency cycle: the field stays empty and is filled at the end.
 */
function many2oneProducer(state: SeedState, model: ModelInfo, field: FieldInfo, options: PlanOptions): Producer {
  const comodel = field.relation!;
  const rows = () => state.rows.get(comodel)?.length ?? 0;
  if (comodel === model.name) {
    return (row) => {
      const earlier = options.scaled ? rows() : Math.min(row.index, rows());
      return earlier > 0 ? row.random.int(1, earlier) : null;
    };
  }
  if (!state.seeded.has(comodel)) {
    state.deferred.push({ model: model.name, field: field.name });
    return () => null;
  }
  const count = rows();
  return (row) => (count > 0 ? row.random.int(1, count) : null);
}

/** `copy: 'field'` or `copy: 'many2one.field'` (through the comodel's demo row). */
function copyProducer(state: SeedState, model: ModelInfo, path: string, get: (name: string) => (row: RowContext) => Value): Producer {
  const [first, rest] = path.split('.', 2) as [string, string | undefined];
  const source = get(first);
  if (rest === undefined) return source;
  const relation = model.fields.get(first)?.relation;
  return (row) => {
    const id = source(row);
    if (id === null || !relation) return null;
    return state.rows.get(relation)?.[Number(id) - 1]?.[rest] ?? null;
  };
}

function generatorProducer(
  state: SeedState,
  model: ModelInfo,
  field: FieldInfo,
  name: DemoGenerator,
  get: (name: string) => (row: RowContext) => Value,
  options: PlanOptions,
): Producer {
  const key = `${model.name}.${field.name}`;
  const nameOf = get('name');
  let current: RowContext | undefined;
  const context: GeneratorContext = {
    get random() {
      return current!.random;
    },
    get index() {
      return current!.index;
    },
    model: model.name,
    rowValue: (fieldName) => (fieldName === 'name' ? nameOf(current!) : get(fieldName)(current!)),
    analyticAccountIds: () => ids(state.rows.get('account.analytic.account')?.length ?? 0),
    unique: (value) => {
      if (options.scaled) return value.replace('@', `.${current!.index + 1}@`);
      let used = state.used.get(key);
      if (!used) {
        used = new Set();
        state.used.set(key, used);
      }
      let candidate = value;
      for (let n = 2; used.has(candidate); n++) candidate = value.replace('@', `.${n}@`);
      used.add(candidate);
      return candidate;
    },
  };
  return (row) => {
    current = row;
    return generate(name, context);
  };
}

/** Generated text in an html field is a paragraph. */
function asHtml(text: Producer): Producer {
  return (row) => {
    const value = text(row);
    return value === null ? null : `<p>${value}</p>`;
  };
}

const idLists = new Map<number, number[]>();
function ids(count: number): number[] {
  let list = idLists.get(count);
  if (!list) {
    list = Array.from({ length: count }, (_, i) => i + 1);
    idLists.set(count, list);
  }
  return list;
}

function stored(field: FieldInfo, value: string | number | boolean | null): Value {
  if (value === null) return null;
  if (typeof value === 'boolean' || field.type === 'boolean') return value ? 1 : 0;
  return value;
}

// Formatting dates is the bulk of a scaled row's cost: days are cached, times built from a table.
const dayTexts = new Map<number, string>();
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function dateText(epoch: number): string {
  const day = Math.floor(epoch / DAY);
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    dayTexts.set(day, text);
  }
  return text;
}

function datetimeText(epoch: number): string {
  const seconds = Math.floor((epoch - Math.floor(epoch / DAY) * DAY) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${dateText(epoch)} ${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[seconds % 60]}`;
}

/** Epoch of a stored `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC), to the second. */
function parseStored(value: string): number {
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value.slice(0, 19).replace(' ', 'T')}Z`);
}

/**
 * The datetime of `whole` with microseconds, as Odoo stores a value written from Python's
 * `datetime.now()` (PostgreSQL keeps them; reads answer the whole second). The fraction comes from
 * the row number and the field, not from the row's random stream: every other value stays as it was.
 * `always` false: a quarter of the rows keep a whole second, as values a user typed do (on a live
 * Odoo's demo data, 41 of 45 pickings' scheduled dates have a fraction, 3 of 11 orders' dates).
 */
function withFraction(whole: Producer, salt: number, always = false): Producer {
  return (row) => {
    const value = whole(row);
    if (typeof value !== 'string' || value.length !== 19) return value;
    return always || ((Math.imul(row.index + 1, 40503) ^ salt) >>> 0) % 4 !== 0 ? `${value}${fraction(row.index + 1, salt)}` : value;
  };
}

/** `.ffffff`, never `.000000`: a multiplicative hash of the row number and the field. */
function fraction(n: number, salt: number): string {
  const micro = ((Math.imul(n, 2654435761) ^ salt) >>> 0) % 999_999;
  return `.${String(micro + 1).padStart(6, '0')}`;
}

function saltOf(model: ModelInfo, field: FieldInfo): number {
  let hash = 2166136261;
  for (const c of `${model.name}.${field.name}`) hash = Math.imul(hash ^ c.charCodeAt(0), 16777619);
  return hash >>> 0;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
