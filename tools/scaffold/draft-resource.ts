/**
 * @module A catalogue resource drafted from what the ERP tells of a model (model-facts.ts): the
 * stored fields with API types from ERP types, enums from selections, many2one pairs (`x`, `x_id`),
 * descriptions from labels and help, the `url` link, a default order from the model's `_order` when
 * the ERP told it, filters on indexed and common fields, and comments wherever the choice is the
 * operator's (personal data, scope, what was left out and why). Pure: no ERP, no file.
 */
import type { ErpFieldFacts, ModelFacts } from './model-facts';

interface FieldDraft {
  readonly name: string;
  /** The catalogue entry: type, format, enum, description, personal, sortable, erp. */
  readonly spec: Readonly<Record<string, unknown>>;
  /** A comment for the operator on the entry's line. */
  readonly comment?: string;
}

interface FilterDraft {
  readonly name: string;
  readonly spec: { readonly op: string; readonly field: string };
}

export interface ResourceDraft {
  readonly title: string;
  readonly description: string;
  readonly model: string;
  readonly defaultOrder: string;
  readonly orderOnly: readonly string[];
  readonly scope: readonly { readonly erp: string; readonly op: '='; readonly value: boolean }[];
  readonly fields: readonly FieldDraft[];
  readonly filters: readonly FilterDraft[];
  /** Comment lines above the resource, the default order, the scope and the filters. */
  readonly notes: { readonly resource: readonly string[]; readonly defaultOrder: string; readonly scope?: string; readonly filters: string };
}

/** Fields every model has that say nothing of the record (log columns, chatter, activities). */
const NOISE_NAMES: ReadonlySet<string> = new Set(['create_uid', 'create_date', 'write_uid', 'write_date', '__last_update', 'display_name']);
const NOISE_PREFIXES = ['message_', 'activity_', 'website_message', 'rating_', 'access_'];
/** ERP types with an API type; the rest (binary, html, x2many, reference, json, properties) are left out. */
const PLAIN_TYPES: Readonly<Record<string, { type: string; format?: string }>> = {
  integer: { type: 'integer' },
  float: { type: 'number' },
  monetary: { type: 'number' },
  boolean: { type: 'boolean' },
  char: { type: 'string' },
  text: { type: 'string' },
  selection: { type: 'string' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
};
/** A selection longer than this (time zones, languages) is answered as a plain string. */
const MAX_ENUM = 60;
const PEOPLE: ReadonlySet<string> = new Set(['res.partner', 'res.users', 'hr.employee']);
const PERSONAL_NAME =
  /(^|_)(e?mail|phone|mobile|fax|birth(day|date)?|street2?|zip|address|vat|ssn|passport|iban|acc_number|gender|nationality|private|signature|identification)(_|$)/;
const COMMON_PARAMETERS: ReadonlySet<string> = new Set(['limit', 'offset', 'since_id', 'total', 'order', 'fields']);
const API_NAME = /^[a-z][a-z0-9_]*$/;
const ORDER_TERM = /^([a-z_][a-z0-9_]*)(?:\s+(asc|desc))?$/i;

export function draftResource(facts: ModelFacts, resourceName: string): ResourceDraft {
  const erpFields = facts.fields;
  const scoped = erpFields['active']?.type === 'boolean' && erpFields['active'].store !== false;
  const taken = new Set<string>(['id']);
  const fields: FieldDraft[] = [{ name: 'id', spec: { type: 'integer', description: `Technical identifier of the ${singular(facts, resourceName)}.`, erp: 'id' } }];
  const left = { computed: [] as string[], relations: [] as string[], other: [] as string[], restricted: [] as string[] };
  const filters: FilterDraft[] = [];
  const filterNames = new Set<string>();
  const addFilter = (name: string, op: string, field: string) => {
    if (filterNames.has(name) || COMMON_PARAMETERS.has(name) || !API_NAME.test(name)) return;
    filterNames.add(name);
    filters.push({ name, spec: { op, field } });
  };
  const personalPeople = PEOPLE.has(facts.model);

  for (const [erp, field] of Object.entries(erpFields)) {
    if (erp === 'id' || NOISE_NAMES.has(erp) || NOISE_PREFIXES.some((p) => erp.startsWith(p)) || !/^[a-z_][a-z0-9_]*$/.test(erp)) continue;
    if (scoped && erp === 'active') continue;
    if (field.groups) {
      left.restricted.push(erp);
      continue;
    }
    if (field.store === false) {
      left.computed.push(erp);
      continue;
    }
    const description = describe(field, erp);
    const searchable = field.searchable !== false;
    if (field.type === 'many2one' && field.relation) {
      const base = erp.endsWith('_id') ? erp.slice(0, -3) : erp;
      const idName = erp.endsWith('_id') ? erp : `${erp}_id`;
      const nameName = taken.has(base) || erpFields[base] ? `${base}_name` : base;
      // One object per entry: a shared one would be printed as a YAML anchor and alias.
      const source = () => ({ many2one: erp, comodel: field.relation });
      if (API_NAME.test(nameName) && !taken.has(nameName)) {
        taken.add(nameName);
        const personal = PEOPLE.has(field.relation);
        fields.push({
          name: nameName,
          spec: { type: 'string', description, ...(personal ? { personal: true } : {}), erp: source() },
          ...(personal ? { comment: `personal data? the name of a ${field.relation} record: the operator decides` } : {}),
        });
      }
      if (API_NAME.test(idName) && !taken.has(idName)) {
        taken.add(idName);
        fields.push({
          name: idName,
          spec: { type: 'integer', description: `Identifier of the ${lowerFirst(collapse(field.string) || humanize(base))} (${field.relation}).`, erp: source() },
        });
        if (searchable) addFilter(idName, '=', idName);
      }
      continue;
    }
    if (field.type === 'one2many' || field.type === 'many2many') {
      left.relations.push(erp);
      continue;
    }
    const plain = PLAIN_TYPES[field.type];
    if (!plain || !API_NAME.test(erp) || taken.has(erp)) {
      left.other.push(`${erp} (${field.type})`);
      continue;
    }
    taken.add(erp);
    const values = field.type === 'selection' ? (field.selection ?? []).map(([key]) => String(key)) : [];
    const enumValues = values.length > 0 && values.length <= MAX_ENUM ? [...new Set(values)] : undefined;
    const personal = PERSONAL_NAME.test(erp) || (personalPeople && erp === 'name');
    fields.push({
      name: erp,
      spec: {
        type: plain.type,
        ...(plain.format ? { format: plain.format } : {}),
        ...(enumValues ? { enum: enumValues } : {}),
        description,
        ...(personal ? { personal: true } : {}),
        ...(field.sortable === false ? { sortable: false } : {}),
        erp,
      },
      ...(personal ? { comment: 'personal data? guessed from the name: the operator decides' } : {}),
    });
    if (!searchable) continue;
    if (field.type === 'selection' || field.type === 'boolean') addFilter(erp, '=', erp);
    else if (field.type === 'date' || field.type === 'datetime') {
      addFilter(`${erp}_after`, '>=', erp);
      addFilter(`${erp}_before`, '<=', erp);
    } else if (erp === 'name' || erp === 'display_name') addFilter(erp, 'ilike', erp);
    else if (facts.indexed?.has(erp) && (field.type === 'char' || field.type === 'integer')) addFilter(erp, '=', erp);
  }
  const urlName = taken.has('url') ? 'record_url' : 'url';
  fields.push({ name: urlName, spec: { type: 'string', description: 'Link to the record in the ERP interface.', erp: { gateway: 'url' } } });

  const order = defaultOrder(facts, fields);
  const title = facts.title ?? humanize(resourceName);
  return {
    title,
    description: `${title} (ERP model ${facts.model}).`,
    model: facts.model,
    defaultOrder: order.text,
    orderOnly: order.orderOnly,
    scope: scoped ? [{ erp: 'active', op: '=', value: true }] : [],
    fields,
    filters,
    notes: {
      resource: [
        `Scaffolded from the ERP's fields_get of ${facts.model} (make scaffold): review before committing.`,
        'title and description: say what a consumer gets; every field is nullable but id, as the ERP may leave any empty.',
        ...(left.computed.length ? [`Left out, computed by the ERP (add as erp: { field: x, computed: true }): ${left.computed.join(', ')}.`] : []),
        ...(left.relations.length ? [`Left out, one2many/many2many (add as erp: { x2many: x, comodel: m }): ${left.relations.join(', ')}.`] : []),
        ...(left.restricted.length ? [`Left out, readable only by some groups (add if the API account is in them): ${left.restricted.join(', ')}.`] : []),
        ...(left.other.length ? [`Left out, no API type: ${left.other.join(', ')}.`] : []),
        ...(erpFields['company_id'] ? ["company_id: the ERP's record rules decide which companies the key's user sees; a scope term on company_id narrows it."] : []),
      ],
      defaultOrder: order.note,
      ...(scoped ? { scope: 'scope: archived records (active = false) are not exposed; remove the scope to expose them (the operator decides).' } : {}),
      filters: facts.indexed
        ? 'filters: many2one ids, selections, booleans, date ranges, the name, and indexed fields.'
        : 'filters: many2one ids, selections, booleans, date ranges and the name (the ERP did not say which fields are indexed).',
    },
  };
}

/**
 * The model's `_order` in catalogue terms: each term on `id`, on an ERP field the resource reads
 * plainly or as a many2one, or on a stored sortable field listed in `order_only`; a term the
 * catalogue cannot say (a dotted path, NULLS FIRST) is dropped and said. Without `_order`, `id asc`:
 * always valid, stable, and what Odoo itself uses when a model declares none.
 */
function defaultOrder(facts: ModelFacts, fields: readonly FieldDraft[]): { text: string; orderOnly: string[]; note: string } {
  const fallback = {
    text: 'id asc',
    orderOnly: [],
    note: "default_order: the ERP did not tell the model's _order (ir.model needs the Access Rights group): id asc, a safe default; the operator may set another.",
  };
  if (!facts.order) return fallback;
  const readable = new Set<string>(['id']);
  for (const field of fields) {
    const erp = field.spec['erp'];
    if (typeof erp === 'string' && field.spec['sortable'] !== false) readable.add(erp);
    else if (erp && typeof erp === 'object' && 'many2one' in erp) readable.add(String((erp as { many2one: string }).many2one));
  }
  const terms: string[] = [];
  const orderOnly: string[] = [];
  const dropped: string[] = [];
  for (const raw of facts.order
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    const match = ORDER_TERM.exec(raw);
    const name = match?.[1];
    const erpField = name ? facts.fields[name] : undefined;
    if (!match || !name || (name !== 'id' && !readable.has(name) && !(erpField?.store !== false && erpField?.sortable !== false && erpField))) {
      dropped.push(raw);
      continue;
    }
    if (name !== 'id' && !readable.has(name)) orderOnly.push(name);
    terms.push(`${name} ${(match[2] ?? 'asc').toLowerCase()}`);
  }
  if (terms.length === 0) return { ...fallback, note: `default_order: the model's _order '${facts.order}' has no term the catalogue can say: id asc.` };
  return {
    text: terms.join(', '),
    orderOnly,
    note: `default_order: the model's _order as the ERP tells it ('${facts.order}')${dropped.length ? `, without ${dropped.join(', ')}` : ''}.`,
  };
}

/** The ERP's label, then its help: `Label: help.` */
function describe(field: ErpFieldFacts, erp: string): string {
  const label = collapse(field.string) || humanize(erp);
  const help = collapse(field.help);
  const text = help && help.toLowerCase() !== label.toLowerCase() ? `${label}: ${lowerFirst(help)}` : label;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function collapse(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]?.toLowerCase() + text.slice(1) : text;
}

function humanize(name: string): string {
  const words = name.replace(/[-_.]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function singular(facts: ModelFacts, resourceName: string): string {
  return (facts.title ?? humanize(resourceName).replace(/s$/, '')).toLowerCase();
}
