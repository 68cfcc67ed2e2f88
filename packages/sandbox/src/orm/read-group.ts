/**
 * @module `_read_group`, Odoo's grouped read, in one SQL query on the store: the groupby terms
 * (date and datetime buckets in the context's time zone, booleans as `COALESCE(col, false)`,
 * many2many through their relation table, 19's many2one paths), the aggregates (`__count`,
 * `field:sum`, `avg`, `min`, `max`, `count`, `count_distinct`, `bool_and`, `bool_or`,
 * `array_agg`...), `having`; then, around the grouped rows, the order of the groups (a many2one
 * through its comodel's `_order`, PostgreSQL's NULL placement), limit and offset; and the values as
 * `_read_group` post-processes them (NULL as each spec's empty value).
 *
 * The checks come in each version's order, with its messages (odoo/models.py `_read_group`,
 * `_read_group_groupby`, `_read_group_select`, `_read_group_orderby`, `_read_group_having`;
 * odoo/orm/models.py in 19). Aggregates PostgreSQL has no function for (`sum` of a text, `max` of a
 * boolean) fail as PostgreSQL fails, when the query runs.
 */
import type { Database } from '../store/database';
import type { Sql, SqlParam, StatementCache } from '../store/statements';
import { column, quoteIdent } from '../store/naming';
import type { AccessControl } from './access';
import { compileDomain, type DomainContext } from './domain';
import { parseDomain, type DomainNode } from './domain-parse';
import { valueError } from './errors';
import { isSortable } from './field-flags';
import { NUMBER_GRANULARITIES, TIME_GRANULARITIES, WEEK_START_OFFSET_DAYS, type NumberGranularity, type TimeGranularity } from './group-labels';
import { compileOrder, orderTerms } from './order';
import { formatEpoch, offsetStretches, parseEpoch } from './temporal';
import { pyRepr } from './python';
import { modelOrder, type FieldInfo, type ModelInfo, type Registry } from './registry';
import { FALSE_SQL, join, param, raw, sql } from './sql';
import { OdooException, type OdooVersion } from './types';
import { ormTraits, type OrmTraits } from './version-traits';

export interface GroupContext {
  readonly registry: Registry;
  readonly version: OdooVersion;
  readonly access: AccessControl;
  readonly uid: number;
  readonly statements: StatementCache;
  readonly domain: DomainContext;
  /** The context's `tz` when pytz knows it: datetime buckets are cut there (never the user's own zone). */
  readonly contextTz: string | undefined;
}

export interface GroupQuery {
  readonly domain: unknown;
  readonly groupby: readonly string[];
  readonly aggregates: readonly string[];
  readonly having?: unknown;
  readonly offset: number;
  readonly limit: number | null;
  readonly order: string | null;
}

/** What a groupby spec designates, for the formatters. */
export interface GroupbyInfo {
  readonly spec: string;
  readonly field: FieldInfo;
  readonly granularity?: string;
  /** `record`: an id (many2one, many2many, `id`), formatted `[id, display_name]`. */
  readonly kind: 'record' | 'time' | 'number' | 'value';
  /** 19's dotted groupby: the many2one fields followed to reach `field` (`partner_id.country_id`). */
  readonly through?: readonly string[];
}

/** `_read_group`'s rows: the groupby values then the aggregate values, as tuples. */
export type GroupRow = unknown[];

/** Odoo's error of a groupby or aggregate spec that its grammar refuses. */
function invalidSpec(spec: string): OdooException {
  return valueError(
    `Invalid aggregate/groupby specification ${pyRepr(spec)}.\n` +
      '- Valid aggregate specification looks like "<field_name>:<agg>" example: "quantity:sum".\n' +
      '- Valid groupby specification looks like "<no_datish_field_name>" or "<datish_field_name>:<granularity>" example: "date:month" or "<properties_field_name>.<property>:<granularity>".',
  );
}

const WORD = String.raw`[\p{L}\p{N}_]+`;
const SPEC_17 = new RegExp(`^(${WORD})(\\.(${WORD}))?(?::(${WORD}))?$`, 'u');
const SPEC_19 = new RegExp(`^(${WORD})(\\.([\\p{L}\\p{N}_.]+))?(?::(${WORD}))?$`, 'u');

/** `parse_read_group_spec`: field, dotted part, granularity or aggregate function. */
export function parseGroupSpec(version: OdooVersion, spec: unknown): { fname: string; path?: string; func?: string } {
  if (typeof spec !== 'string') throw new OdooException('builtins.TypeError', `expected string or bytes-like object, got '${pyTypeOf(spec)}'`);
  const m = (ormTraits(version).readGroupDottedPaths ? SPEC_19 : SPEC_17).exec(spec);
  if (!m) throw invalidSpec(spec);
  return { fname: m[1]!, ...(m[3] !== undefined ? { path: m[3] } : {}), ...(m[4] !== undefined ? { func: m[4] } : {}) };
}

function pyTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'dict' : 'str';
}

/** PostgreSQL's name of the column type Odoo gives a field (for "function sum(text) does not exist"). */
function pgType(field: FieldInfo): string {
  switch (field.type) {
    case 'char':
    case 'selection':
      return 'character varying';
    case 'text':
    case 'html':
      return 'text';
    case 'integer':
    case 'many2one':
      return 'integer';
    case 'float':
      return field.digits !== undefined ? 'numeric' : 'double precision';
    case 'monetary':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamp without time zone';
    default:
      return 'jsonb';
  }
}

const NUMERIC_PG = new Set(['integer', 'numeric', 'double precision']);

/** Whether PostgreSQL has `func` for a column of that type (count and array_agg take anything). */
function pgHasAggregate(func: string, type: string): boolean {
  switch (func) {
    case 'sum':
    case 'avg':
      return NUMERIC_PG.has(type);
    case 'min':
    case 'max':
      return type !== 'boolean' && type !== 'jsonb';
    case 'bool_and':
    case 'bool_or':
      return type === 'boolean';
    default:
      return true;
  }
}

/** psycopg2's error for an aggregate PostgreSQL does not have, as Odoo lets it through. */
function undefinedFunction(func: string, type: string): OdooException {
  const name = func === 'count_distinct' ? 'count' : func;
  return new OdooException(
    'psycopg2.errors.UndefinedFunction',
    `function ${name}(${type}) does not exist\nHINT:  No function matches the given name and argument types. You might need to add explicit type casts.\n`,
  );
}

/** What a valid groupby spec designates (the spec parsed, the fields known to exist). */
export function describeGroupby(registry: Registry, version: OdooVersion, model: ModelInfo, spec: string, through: readonly string[] = []): GroupbyInfo {
  const { fname, path, func: granularity } = parseGroupSpec(version, spec);
  const field = model.fields.get(fname)!;
  if (path !== undefined && field.type === 'many2one') {
    const inner = describeGroupby(registry, version, registry.require(field.relation!), granularity !== undefined ? `${path}:${granularity}` : path, [...through, fname]);
    return { ...inner, spec };
  }
  const base = { spec, field, ...(through.length ? { through } : {}) };
  if (field.type === 'date' || field.type === 'datetime') {
    const kind = (NUMBER_GRANULARITIES as readonly string[]).includes(granularity ?? '') ? 'number' : 'time';
    return { ...base, kind, ...(granularity !== undefined ? { granularity } : {}) };
  }
  const record = field.type === 'many2one' || field.type === 'many2many' || field.name === 'id';
  return { ...base, kind: record ? 'record' : 'value' };
}

interface GroupbyTerm extends GroupbyInfo {
  readonly expr: Sql;
  readonly nullable: boolean;
}

interface AggregateTerm {
  readonly spec: string;
  readonly expr: Sql;
  readonly nullable: boolean;
  readonly field?: FieldInfo;
  readonly func?: string;
  /** A PostgreSQL error the query would raise. */
  readonly failure?: OdooException;
}

/** Beyond this many offset changes over a column's range, the registered function converts it. */
const MAX_OFFSET_STRETCHES = 200;

/** The SQL functions registered on the store (`registerGroupFunctions`). */
const UTC_TO_LOCAL_FUNCTION = 'odoo_utc_to_local';

class GroupCompiler {
  readonly joins: string[] = [];
  readonly joinParams: SqlParam[] = [];
  private readonly traits: OrmTraits;
  private readonly failures: OdooException[] = [];

  constructor(
    private readonly ctx: GroupContext,
    private readonly model: ModelInfo,
  ) {
    this.traits = ormTraits(ctx.version);
  }

  /** The first PostgreSQL error of the query, raised when it would run. */
  failure(): OdooException | undefined {
    return this.failures[0];
  }

  private addJoin(text: string, params: readonly SqlParam[] = []): void {
    if (this.joins.includes(text)) return;
    this.joins.push(text);
    this.joinParams.push(...params);
  }

  /** `_field_to_sql`: a column (a related field through its path, i.e. its own column here). */
  fieldSql(field: FieldInfo, model: ModelInfo = this.model, alias = 't'): Sql {
    if (field.compute !== undefined || field.type === 'one2many' || field.type === 'many2many' || !isSortable(this.ctx.version, field)) {
      throw valueError(this.traits.notStoredMessage(model.name, field.name));
    }
    return raw(column(alias, field.name));
  }

  /** `_read_group_groupby(alias, spec)`: on the model, or (19) on a many2one's comodel through its path. */
  groupby(spec: string, model: ModelInfo = this.model, alias = 't', fullSpec = spec): GroupbyTerm {
    const { fname, path, func: granularity } = parseGroupSpec(this.ctx.version, spec);
    const field = model.fields.get(fname);
    if (!field) throw valueError(`Invalid field ${pyRepr(fname)} on model ${pyRepr(model.name)}`);
    if (path !== undefined) {
      if (!this.traits.readGroupDottedPaths || field.type !== 'many2one') throw valueError(this.traits.groupbyPathMessage(path, spec));
      // 19: LEFT JOIN the comodel (searched as the caller: its read right) and group by its field.
      const comodel = this.ctx.registry.require(field.relation!);
      this.ctx.access.check(this.ctx.uid, comodel.name, 'read');
      const coalias = `${alias}__${fname}__grp`;
      this.addJoin(`LEFT JOIN ${quoteIdent(comodel.table)} AS ${coalias} ON ${column(alias, fname)} = ${column(coalias, 'id')}`);
      return this.groupby(granularity !== undefined ? `${path}:${granularity}` : path, comodel, coalias, fullSpec);
    }
    const temporal = field.type === 'date' || field.type === 'datetime';
    if (granularity !== undefined && !temporal) throw valueError(`Granularity set on a no-datetime field or property: ${pyRepr(spec)}`);

    if (field.type === 'many2many' && field.relationTable && field.compute === undefined) {
      return { spec: fullSpec, field, kind: 'record', expr: this.many2many(field, alias), nullable: true };
    }
    let expr = this.fieldSql(field, model, alias);
    if (field.type === 'datetime' && this.ctx.contextTz && this.ctx.contextTz !== 'UTC') {
      expr = this.toLocal(expr, model, field, this.ctx.contextTz);
    }
    if (temporal) {
      if (granularity === undefined) throw valueError(`Granularity not set on a date(time) field: ${pyRepr(spec)}`);
      const numbers = this.traits.numberGranularities && (NUMBER_GRANULARITIES as readonly string[]).includes(granularity);
      if (!(TIME_GRANULARITIES as readonly string[]).includes(granularity) && !numbers) {
        throw valueError(`Granularity specification isn't correct: ${pyRepr(granularity)}`);
      }
      if (numbers) return { spec: fullSpec, field, granularity, kind: 'number', expr: numberPart(expr, granularity as NumberGranularity), nullable: true };
      return { spec: fullSpec, field, granularity, kind: 'time', expr: truncate(expr, granularity as TimeGranularity, field.type as 'date' | 'datetime'), nullable: true };
    }
    if (field.type === 'boolean') return { spec: fullSpec, field, kind: 'value', expr: sql`COALESCE(${expr}, 0)`, nullable: false };
    const record = field.type === 'many2one' || field.name === 'id';
    return { spec: fullSpec, field, kind: record ? 'record' : 'value', expr, nullable: field.name !== 'id' };
  }

  /**
   * `timezone(tz, timezone('UTC', col))`: the column's UTC datetimes as wall-clock times of `tz`,
   * with the offsets `tz` has over the column's range written in the query (a CASE on the UTC
   * instants the offset changes at), so SQLite converts a million rows without calling back; the
   * registered function does it when the range crosses too many changes.
   */
  private toLocal(expr: Sql, model: ModelInfo, field: FieldInfo, tz: string): Sql {
    const range = this.ctx.statements.get<{ lo: string | null; hi: string | null }>(
      sql`SELECT MIN(${raw(quoteIdent(field.name))}) AS "lo", MAX(${raw(quoteIdent(field.name))}) AS "hi" FROM ${raw(quoteIdent(model.table))}`,
    );
    if (!range?.lo || !range.hi) return expr;
    const DAY = 86_400_000;
    const stretches = offsetStretches(tz, parseEpoch(range.lo) - DAY, parseEpoch(range.hi) + DAY);
    if (stretches.length > MAX_OFFSET_STRETCHES) return sql`${raw(UTC_TO_LOCAL_FUNCTION)}(${expr}, ${param(tz)})`;
    const shift = (offsetMs: number) => param(`${offsetMs >= 0 ? '+' : ''}${offsetMs / 1000} seconds`);
    if (stretches.length === 1) return sql`datetime(${expr}, ${shift(stretches[0]!.offsetMs)})`;
    const branches = stretches.map((s) => (s.until === null ? sql`ELSE ${shift(s.offsetMs)}` : sql`WHEN ${expr} < ${param(formatEpoch(s.until))} THEN ${shift(s.offsetMs)}`));
    return sql`datetime(${expr}, CASE ${join(branches, ' ')} END)`;
  }

  /** A LEFT JOIN of the relation table (19: only the comodel rows a search gives, archived ones out). */
  private many2many(field: FieldInfo, owner: string): Sql {
    const alias = `${owner}__${field.name}`;
    let condition = `${column(owner, 'id')} = ${column(alias, 'a')}`;
    if (this.traits.many2manyGroupSearchesComodel) {
      const comodel = this.ctx.registry.require(field.relation!);
      this.ctx.access.check(this.ctx.uid, comodel.name, 'read');
      if (comodel.hasActive && this.ctx.domain.activeTest) {
        condition += ` AND ${column(alias, 'b')} IN (SELECT c."id" FROM ${quoteIdent(comodel.table)} c WHERE c."active" = 1)`;
      }
    }
    this.addJoin(`LEFT JOIN ${quoteIdent(field.relationTable!)} AS ${alias} ON ${condition}`);
    return raw(column(alias, 'b'));
  }

  aggregate(spec: string): AggregateTerm {
    if (spec === '__count') return { spec, expr: raw('COUNT(*)'), nullable: false };
    const { fname, path, func } = parseGroupSpec(this.ctx.version, spec);
    if (path !== undefined) throw valueError(`Invalid ${pyRepr(spec)}, this dot notation is not supported`);
    const field = this.model.fields.get(fname);
    if (!field) throw valueError(`Invalid field ${pyRepr(fname)} on model ${pyRepr(this.model.name)} for ${pyRepr(spec)}.`);
    if (func === undefined) throw valueError(`Aggregate method is mandatory for ${pyRepr(fname)}`);
    if (func === 'sum_currency' && this.traits.sumCurrency) {
      if (field.type !== 'monetary') throw valueError(`Aggregator "sum_currency" only works on currency field for ${pyRepr(fname)}`);
      // SUM(amount / COALESCE(rate, 1.0)) with the company's rates: the sandbox has no rate, every
      // currency counts at 1, as Odoo counts a currency without rates.
      return { spec, field, func, expr: aggregateSql('sum', this.fieldSql(field), field), nullable: true };
    }
    if (!this.traits.aggregateFunctions.has(func)) throw valueError(`Invalid aggregate method ${pyRepr(func)} for ${pyRepr(spec)}.`);
    const relational = field.type === 'many2one' || field.type === 'one2many' || field.type === 'many2many';
    if (func === 'recordset' && !(relational || fname === 'id')) {
      throw valueError(`Aggregate method ${pyRepr(func)} can be only used on relational field (or id) (for ${pyRepr(spec)}).`);
    }
    const expr = this.fieldSql(field);
    const type = pgType(field);
    const failure = pgHasAggregate(func, type) ? undefined : undefinedFunction(func, type);
    if (failure) this.failures.push(failure);
    return { spec, field, func, expr: aggregateSql(func, expr, field), nullable: func !== 'count' && func !== 'count_distinct', ...(failure ? { failure } : {}) };
  }

  having(having: unknown): Sql | undefined {
    if (!Array.isArray(having) || !having.length) return undefined;
    const stack: Sql[] = [];
    for (const item of [...having].reverse()) {
      if (item === '!') stack.push(sql`(NOT ${stack.pop()!})`);
      else if (item === '&' || item === '|') {
        const a = stack.pop()!;
        const b = stack.pop()!;
        stack.push(sql`(${a} ${raw(item === '&' ? 'AND' : 'OR')} ${b})`);
      } else if (Array.isArray(item) && item.length === 3) {
        const [left, operator, right] = item as [unknown, unknown, unknown];
        const supported = ['in', 'not in', '<', '>', '<=', '>=', '=', '!='];
        if (typeof operator !== 'string' || !supported.includes(operator)) {
          throw valueError(`Invalid having clause ${pyRepr(item)}: supported comparators are ('in', 'not in', '<', '>', '<=', '>=', '=', '!=')`);
        }
        const term = this.aggregate(left as string);
        if (operator === 'in' || operator === 'not in') {
          // Odoo writes the value as psycopg2 adapts it: a list is `ARRAY[...]`, which `IN` refuses.
          const near = Array.isArray(right) ? 'ARRAY' : pyRepr(right);
          this.failures.push(new OdooException('psycopg2.errors.SyntaxError', `syntax error at or near "${near}"\n`));
        }
        stack.push(havingCondition(term.expr, operator, right));
      } else {
        throw valueError(`Invalid having clause ${pyRepr(item)}: it should be a domain-like clause`);
      }
    }
    while (stack.length > 1) stack.push(sql`(${stack.pop()!} AND ${stack.pop()!})`);
    return stack[0];
  }

  /**
   * `_read_group_orderby`: groupby terms and aggregates, many2one groups in their comodel's order.
   * The groups are ordered after grouping (an outer query over the grouped one, aliased `t`): each
   * term is a column of the grouped query (`g0`, `a0`, an aggregate only ordered by as `o0`, a
   * many2one's raw id under its field name), so the comodel is joined per group, not per row.
   */
  order(order: string | null, groupby: readonly GroupbyTerm[], aggregates: readonly AggregateTerm[]): GroupOrder {
    const result: GroupOrder = { terms: [], joins: [], extraSelect: [], rawColumns: [] };
    const traverse = Boolean(order);
    const text = order || groupby.map((g) => g.spec).join(',');
    if (!text) return result;
    for (const part of text.split(',')) {
      const m = this.traits.readGroupOrderPart.exec(part);
      if (!m?.groups) throw valueError(`Invalid order ${pyRepr(text)} for _read_group()`);
      const term = m.groups['term']!;
      const direction = (m.groups['direction'] ?? 'ASC').toUpperCase() as 'ASC' | 'DESC';
      const nulls = m.groups['nulls'] ? (m.groups['nulls'].toUpperCase() as 'NULLS FIRST' | 'NULLS LAST') : undefined;
      const index = groupby.findIndex((g) => g.spec === term);
      if (index < 0) {
        let aggregate: AggregateTerm;
        try {
          aggregate = this.aggregate(term);
        } catch (error) {
          if (error instanceof OdooException && error.exceptionName === 'builtins.ValueError') {
            throw valueError(`Order term ${pyRepr(part)} is not a valid aggregate nor valid groupby`);
          }
          throw error;
        }
        const selected = aggregates.findIndex((a) => a.spec === aggregate.spec);
        let name = `a${selected}`;
        if (selected < 0) {
          name = `o${result.extraSelect.length}`;
          result.extraSelect.push(sql`${aggregate.expr} AS ${raw(`"${name}"`)}`);
        }
        result.terms.push(...orderTerms(`t."${name}"`, direction, nulls, aggregate.nullable));
        continue;
      }
      const grouped = groupby[index]!;
      const field = this.model.fields.get(term);
      if (traverse && field?.type === 'many2one' && modelOrder(this.ctx.registry.require(field.relation!), this.ctx.version) !== 'id' && grouped.kind === 'record') {
        const compiled = compileOrder(this.ctx.registry, this.ctx.version, this.model, `${term} ${direction}${nulls ? ` ${nulls}` : ''}`);
        for (const joinText of compiled.joins ? compiled.joins.split(/ (?=LEFT JOIN )/) : []) if (!result.joins.includes(joinText)) result.joins.push(joinText);
        if (!result.rawColumns.includes(term)) result.rawColumns.push(term);
        if (compiled.orderBy) result.terms.push(compiled.orderBy);
        continue;
      }
      result.terms.push(...orderTerms(`t."g${index}"`, direction, nulls, grouped.nullable));
    }
    return result;
  }
}

/** The order of the groups, over the grouped query's columns (see `GroupCompiler.order`). */
interface GroupOrder {
  readonly terms: string[];
  /** LEFT JOINs of comodels (many2one groups in their comodel's order). */
  readonly joins: string[];
  /** Aggregates only ordered by (`o0`, `o1`...). */
  readonly extraSelect: Sql[];
  /** Many2one fields whose raw id the comodel joins need, under the field's name. */
  readonly rawColumns: string[];
}

/**
 * `date_trunc` over the store's text dates (`YYYY-MM-DD[ HH:MM:SS]`): cut as text where it can be,
 * a week (starting on the language's first day) through `date()`.
 */
function truncate(expr: Sql, granularity: TimeGranularity, type: 'date' | 'datetime'): Sql {
  const k = WEEK_START_OFFSET_DAYS;
  const time = raw(type === 'datetime' ? `' 00:00:00'` : `''`);
  switch (granularity) {
    case 'hour':
      return type === 'datetime' ? sql`(substr(${expr}, 1, 13) || ':00:00')` : sql`substr(${expr}, 1, 10)`;
    case 'day':
      return sql`(substr(${expr}, 1, 10) || ${time})`;
    case 'week': {
      const shift = raw(`'+${k} days', '-6 days', 'weekday 1', '-${k} days'`);
      return sql`(date(substr(${expr}, 1, 10), ${shift}) || ${time})`;
    }
    case 'month':
      return sql`(substr(${expr}, 1, 7) || '-01' || ${time})`;
    case 'quarter': {
      const month = sql`substr(${expr}, 6, 2)`;
      return sql`(substr(${expr}, 1, 5) || (CASE WHEN ${month} < '04' THEN '01' WHEN ${month} < '07' THEN '04' WHEN ${month} < '10' THEN '07' ELSE '10' END) || '-01' || ${time})`;
    }
    case 'year':
      return sql`(substr(${expr}, 1, 4) || '-01-01' || ${time})`;
  }
}

const NUMBER_FORMAT: Readonly<Record<NumberGranularity, string>> = {
  year_number: '%Y',
  quarter_number: '%m',
  month_number: '%m',
  iso_week_number: '%V',
  day_of_year: '%j',
  day_of_month: '%d',
  day_of_week: '%w',
  hour_number: '%H',
  minute_number: '%M',
  second_number: '%S',
};

/** `date_part(...)`: PostgreSQL's numbering (ISO weeks, Sunday = 0). */
function numberPart(expr: Sql, granularity: NumberGranularity): Sql {
  const text: Partial<Record<NumberGranularity, [number, number]>> = {
    year_number: [1, 4],
    month_number: [6, 2],
    day_of_month: [9, 2],
    hour_number: [12, 2],
    minute_number: [15, 2],
    second_number: [18, 2],
  };
  const slice = text[granularity];
  if (slice) return sql`CAST(substr(${expr}, ${raw(String(slice[0]))}, ${raw(String(slice[1]))}) AS INTEGER)`;
  if (granularity === 'quarter_number') return sql`((CAST(substr(${expr}, 6, 2) AS INTEGER) + 2) / 3)`;
  return sql`CAST(strftime(${raw(`'${NUMBER_FORMAT[granularity]}'`)}, ${expr}) AS INTEGER)`;
}

/**
 * PostgreSQL sums a `numeric` column (monetary, float with digits) exactly: so does the store, in
 * hundredths (or the field's digits) counted as integers, when every value has no more decimals;
 * the double sum of the others is within a rounding of it.
 */
function exactDecimal(func: 'SUM' | 'AVG', expr: Sql, digits: number): Sql {
  const scale = raw(`1e${digits}`);
  const scaled = sql`ROUND(${expr} * ${scale})`;
  const divisor = func === 'SUM' ? scale : sql`(${scale} * COUNT(${expr}))`;
  return sql`(CASE WHEN MAX(ABS(${expr} * ${scale} - ${scaled})) < 1e-6 THEN SUM(${scaled}) / ${divisor} ELSE ${raw(func)}(${expr}) END)`;
}

function aggregateSql(func: string, expr: Sql, field: FieldInfo): Sql {
  const numeric = pgType(field) === 'numeric';
  const digits = Math.min(field.digits ?? 2, 6);
  switch (func) {
    case 'sum':
      return numeric ? exactDecimal('SUM', expr, digits) : sql`SUM(${expr})`;
    case 'avg':
      return numeric ? exactDecimal('AVG', expr, digits) : sql`AVG(${expr})`;
    case 'max':
      return sql`MAX(${expr})`;
    case 'min':
      return sql`MIN(${expr})`;
    case 'bool_and':
      return sql`MIN(${expr})`;
    case 'bool_or':
      return sql`MAX(${expr})`;
    case 'count':
      return sql`COUNT(${expr})`;
    case 'count_distinct':
      return sql`COUNT(DISTINCT ${expr})`;
    case 'array_agg_distinct':
      return sql`json_group_array(DISTINCT ${expr} ORDER BY ${expr} IS NULL, ${expr})`;
    default:
      // array_agg, recordset: ordered by id.
      return sql`json_group_array(${expr} ORDER BY t."id")`;
  }
}

/** A having condition on an aggregate (`in` never runs: see `GroupCompiler.having`). */
function havingCondition(expr: Sql, operator: string, right: unknown): Sql {
  if (operator === 'in' || operator === 'not in') return FALSE_SQL;
  const value = typeof right === 'boolean' || typeof right === 'number' || typeof right === 'string' ? param(right) : raw('NULL');
  return sql`${expr} ${raw(operator === '!=' ? '<>' : operator)} ${value}`;
}

/** PostgreSQL's refusal of a negative LIMIT or OFFSET (Odoo passes any truthy value through). */
function limitFailure(query: GroupQuery): OdooException | undefined {
  if (query.limit !== null && query.limit < 0) return new OdooException('psycopg2.errors.InvalidRowCountInLimitClause', 'LIMIT must not be negative\n');
  if (query.offset < 0) return new OdooException('psycopg2.errors.InvalidRowCountInResultOffsetClause', 'OFFSET must not be negative\n');
  return undefined;
}

/** `expression.is_false`: a domain false by its form (`in []`, the false leaf) is not searched (17/18). */
function isFalseDomain17(node: DomainNode): boolean {
  const value = (n: DomainNode): number => {
    switch (n.kind) {
      case 'bool':
        return n.value ? 1 : -1;
      case 'not':
        return -value(n.child);
      case 'and':
        return Math.min(...n.children.map(value));
      case 'or':
        return Math.max(...n.children.map(value));
      case 'leaf':
        if (n.operator === 'in' && Array.isArray(n.value) && n.value.length === 0) return -1;
        if (n.operator === 'not in' && Array.isArray(n.value) && n.value.length === 0) return 1;
        if ((n.operator === 'in' || n.operator === 'not in') && (n.value === false || n.value === null || n.value === '' || n.value === 0)) {
          return n.operator === 'in' ? -1 : 1;
        }
        return 0;
    }
  };
  return value(node) === -1;
}

export interface GroupResult {
  readonly rows: readonly GroupRow[];
}

/** The empty value of a spec when the group has none (`_read_group_empty_value`). */
export function emptyValue(spec: string, version: OdooVersion): unknown {
  if (spec === '__count') return 0;
  const func = SPEC_19.exec(spec)?.[4];
  if (func === 'count' || func === 'count_distinct') return 0;
  if (func === 'array_agg' || (func === 'array_agg_distinct' && ormTraits(version).aggregateFunctions.has('array_agg_distinct'))) return [];
  return false;
}

/**
 * `_read_group(domain, groupby, aggregates, having, offset, limit, order)`: read right, domain,
 * groupby, aggregates, having and order in the version's order, one query, values post-processed.
 */
export function readGroupRows(ctx: GroupContext, model: ModelInfo, query: GroupQuery): GroupResult {
  const traits = ormTraits(ctx.version);
  ctx.access.check(ctx.uid, model.name, 'read');
  const emptyRows = (): GroupResult => ({ rows: query.groupby.length ? [] : [query.aggregates.map((spec) => emptyValue(spec, ctx.version))] });
  if (!traits.readGroupSearchesEmptyDomain && isFalseDomain17(parseDomain(query.domain, ctx.version))) return emptyRows();
  const where = compileDomain(ctx.domain, model, query.domain);
  if (traits.readGroupSearchesEmptyDomain && where === FALSE_SQL) return emptyRows();

  const compiler = new GroupCompiler(ctx, model);
  const groupby = query.groupby.map((spec) => compiler.groupby(spec));
  let aggregates: AggregateTerm[] = [];
  let having: Sql | undefined;
  let order: GroupOrder | undefined;
  const steps: Record<'select' | 'having' | 'order', () => void> = {
    select: () => {
      aggregates = query.aggregates.map((spec) => compiler.aggregate(spec));
    },
    having: () => {
      if (groupby.length) having = compiler.having(query.having);
    },
    order: () => {
      if (groupby.length) order = compiler.order(query.order, groupby, aggregates);
    },
  };
  for (const step of traits.readGroupStepOrder) steps[step]();
  const failure = compiler.failure() ?? limitFailure(query);
  if (failure) throw failure;

  const select = [...groupby.map((g, i) => sql`${g.expr} AS ${raw(`"g${i}"`)}`), ...aggregates.map((a, i) => sql`${a.expr} AS ${raw(`"a${i}"`)}`)];
  if (!select.length) {
    // `query.select()` without columns selects the ids, one row per record: `_read_group`'s
    // post-processing then asserts that it used every column, and fails (19's formatted_read_group).
    const any = ctx.statements.get(sql`SELECT 1 AS "x" FROM ${raw(quoteIdent(model.table))} t WHERE ${where} LIMIT 1`);
    if (any) throw new OdooException('builtins.AssertionError', '');
    return { rows: [] };
  }
  if (order) {
    select.push(...order.extraSelect);
    for (const name of order.rawColumns) select.push(raw(`${column('t', name)} AS ${quoteIdent(name)}`));
  }
  const joins = { sql: compiler.joins.join(' '), params: compiler.joinParams };
  const grouped: Sql[] = [sql`SELECT ${join(select, ', ')} FROM ${raw(quoteIdent(model.table))} t ${joins} WHERE ${where}`];
  if (groupby.length)
    grouped.push(
      sql` GROUP BY ${join(
        groupby.map((g) => g.expr),
        ', ',
      )}`,
    );
  if (having) grouped.push(sql` HAVING ${having}`);
  const page = query.limit !== null || query.offset ? sql` LIMIT ${param(query.limit ?? -1)} OFFSET ${param(query.offset)}` : raw('');
  const parts: Sql[] = order?.terms.length
    ? [sql`SELECT t.* FROM (${join(grouped, '')}) t ${raw(order.joins.join(' '))} ORDER BY ${raw(order.terms.join(', '))}`, page]
    : [...grouped, page];
  const raws = ctx.statements.all(join(parts, ''));

  const rows = raws.map((r) => [...groupby.map((g, i) => groupValue(g, r[`g${i}`] ?? null)), ...aggregates.map((a, i) => aggregateValue(a, r[`a${i}`] ?? null, ctx.version))]);
  return { rows };
}

/** A groupby value as `_read_group` gives it: NULL as `false`, booleans as booleans. */
function groupValue(term: GroupbyTerm, value: SqlParam): unknown {
  if (value === null) return false;
  if (term.field.type === 'boolean' && term.kind === 'value') return value !== 0;
  if (term.kind === 'record' || term.kind === 'number') return Number(value);
  if (term.field.type === 'json' && typeof value === 'string') return JSON.parse(value);
  return value;
}

/** An aggregate value: NULL as the spec's empty value; booleans, arrays and numbers as Odoo returns them. */
function aggregateValue(term: AggregateTerm, value: SqlParam, version: OdooVersion): unknown {
  if (value === null) return emptyValue(term.spec, version);
  const type = term.field?.type;
  switch (term.func) {
    case undefined:
    case 'count':
    case 'count_distinct':
      return value;
    case 'bool_and':
    case 'bool_or':
      return value !== 0;
    case 'array_agg':
    case 'array_agg_distinct':
    case 'recordset': {
      const items = JSON.parse(String(value)) as unknown[];
      return type === 'boolean' ? items.map((v) => (v === null ? null : v !== 0)) : items;
    }
    default:
      return type === 'boolean' ? value !== 0 : value;
  }
}

/** Registers the SQL function datetime buckets use in a time zone other than UTC. */
export function registerGroupFunctions(db: Database, convert: (value: string, tz: string) => string): void {
  db.function(UTC_TO_LOCAL_FUNCTION, { deterministic: true }, (value, tz) => (value === null ? null : convert(String(value), String(tz))));
}
