/**
 * @module Which models and fields the two sides have in common: the sandbox's registry
 * intersected with the live ERP's `fields_get`, as the administrator sees them. Only fields of
 * the same type (and comodel) on both sides are mirrored and compared; the rest is reported as a
 * note, never silently dropped.
 */
import type { FieldInfo, ModelInfo, Registry } from '@ops-data-gateway/sandbox/orm/registry';
import { CallFailed, mustCall, type Side } from './wire';

/** What `fields_get` says of one field (the attributes the check asks for). */
interface LiveField {
  readonly type: string;
  readonly relation?: string;
  readonly store?: boolean;
  readonly [attribute: string]: unknown;
}

export interface CommonModel {
  readonly name: string;
  readonly sandbox: ModelInfo;
  readonly live: Readonly<Record<string, LiveField>>;
  /** Fields both sides have with the same type and comodel (comodel also common), `id` first. */
  readonly fields: readonly FieldInfo[];
  /** Sandbox columns filled from the live records (stored on the sandbox side, in `fields`). */
  readonly mirrored: readonly FieldInfo[];
  /**
   * Selection values of compared fields that the live ERP lacks (the organisation's own, such as
   * `org_tribu`), by field: noted like absent fields, and left out of the `fields_get` comparison.
   */
  readonly sandboxOnlyValues: ReadonlyMap<string, readonly string[]>;
}

export interface Schema {
  readonly models: ReadonlyMap<string, CommonModel>;
  /** One line per model or field left out, with the reason. */
  readonly notes: readonly string[];
}

export const FIELDS_GET_ATTRIBUTES = [
  'type',
  'relation',
  'selection',
  'required',
  'readonly',
  'store',
  'sortable',
  'searchable',
  'groupable',
  'aggregator',
  'group_operator',
] as const;

export async function discoverSchema(live: Side, registry: Registry, only?: readonly string[]): Promise<Schema> {
  const notes: string[] = [];
  const present = new Map<string, Record<string, LiveField>>();
  for (const model of registry.models.values()) {
    if (only && !only.includes(model.name)) continue;
    try {
      const fields = (await mustCall(live, { kind: 'execute', model: model.name, method: 'fields_get', kwargs: { attributes: [...FIELDS_GET_ATTRIBUTES] } })) as Record<
        string,
        LiveField
      >;
      await mustCall(live, { kind: 'execute', model: model.name, method: 'search_count', kwargs: { domain: [], context: { active_test: false } } });
      present.set(model.name, fields);
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      if (!/does not exist|doesn't exist/.test(error.message)) notes.push(`${model.name}: not compared (${firstLine(error.message)})`);
    }
  }
  const models = new Map<string, CommonModel>();
  for (const [name, live] of present) {
    const sandbox = registry.require(name);
    const fields: FieldInfo[] = [];
    const skipped: string[] = [];
    for (const field of sandbox.fields.values()) {
      const other = live[field.name];
      if (!other) {
        skipped.push(`${field.name} (absent)`);
        continue;
      }
      if (other.type !== field.type || (other.relation ?? undefined) !== field.relation) {
        skipped.push(`${field.name} (${field.type}${field.relation ? ` ${field.relation}` : ''} here, ${other.type}${other.relation ? ` ${other.relation}` : ''} live)`);
        continue;
      }
      if (field.relation && !present.has(field.relation)) {
        skipped.push(`${field.name} (comodel ${field.relation} not compared)`);
        continue;
      }
      fields.push(field);
    }
    if (skipped.length) notes.push(`${name}: sandbox fields not compared: ${skipped.join(', ')}`);
    const sandboxOnlyValues = selectionGaps(fields, live);
    for (const [field, values] of sandboxOnlyValues) notes.push(`${name}: sandbox selection values not compared: ${field} ${values.join(', ')} (absent)`);
    const mirrored = fields.filter((f) => f.store || f.type === 'many2many');
    models.set(name, { name, sandbox, live, fields, mirrored, sandboxOnlyValues });
  }
  return { models, notes };
}

/** Selection keys of the sandbox's fields that the live field does not offer, by field. */
function selectionGaps(fields: readonly FieldInfo[], live: Readonly<Record<string, LiveField>>): Map<string, string[]> {
  const gaps = new Map<string, string[]>();
  for (const field of fields) {
    const offered = live[field.name]?.['selection'];
    if (field.type !== 'selection' || !Array.isArray(offered)) continue;
    const keys = new Set(offered.map((pair) => (Array.isArray(pair) ? pair[0] : pair)));
    const missing = (field.selection ?? []).map(([key]) => key).filter((key) => !keys.has(key));
    if (missing.length) gaps.set(field.name, missing);
  }
  return gaps;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
