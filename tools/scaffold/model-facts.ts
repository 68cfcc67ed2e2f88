/**
 * @module What the ERP tells of a model over its external API, for the scaffold: `fields_get` (types,
 * labels, help, selections, relations, stored, sortable, searchable, groups) and, where the key may
 * read them (Odoo's "Access Rights" group: an administrator), the model's `_order` and name from
 * `ir.model` and its indexed fields from `ir.model.fields`. `fields_get` never says either: a key
 * without that right gets the scaffold's safe default order and filters chosen without indexes.
 */
import { ErpFault, erpErrorSummary } from '@ops-data-gateway/gateway/runtime/erp/erp-error';
import { ErpStats, type ErpClient } from '@ops-data-gateway/gateway/runtime/erp/erp-client';
import type { ErpCredentials } from '@ops-data-gateway/gateway/runtime/erp/transport';

const FIELD_ATTRIBUTES = ['type', 'string', 'help', 'relation', 'selection', 'store', 'sortable', 'searchable', 'groups'] as const;

export interface ErpFieldFacts {
  readonly type: string;
  readonly string?: string;
  readonly help?: string;
  readonly relation?: string;
  readonly selection?: readonly (readonly [string | number, string])[];
  readonly store?: boolean;
  readonly sortable?: boolean;
  readonly searchable?: boolean;
  readonly groups?: string;
}

export interface ModelFacts {
  readonly model: string;
  readonly fields: Readonly<Record<string, ErpFieldFacts>>;
  /** The model's name as the ERP shows it (`ir.model.name`), when readable. */
  readonly title?: string;
  /** The model's `_order` (`ir.model.order`, Odoo 17+), when readable. */
  readonly order?: string;
  /** Fields with a database index (`ir.model.fields.index`), when readable. */
  readonly indexed?: ReadonlySet<string>;
  /** What could not be learnt, and why, for the operator. */
  readonly notes: readonly string[];
}

export type DescribeResult = { readonly ok: true; readonly facts: ModelFacts } | { readonly ok: false; readonly message: string };

export async function describeModel(erp: ErpClient, credentials: ErpCredentials, model: string): Promise<DescribeResult> {
  const stats = new ErpStats();
  const call = (target: string, method: string, kwargs: Record<string, unknown>) => erp.call(credentials, { model: target, method, ids: null, kwargs }, stats);
  let fields: Record<string, ErpFieldFacts>;
  try {
    fields = (await call(model, 'fields_get', { attributes: [...FIELD_ATTRIBUTES] })) as Record<string, ErpFieldFacts>;
  } catch (error) {
    if (error instanceof ErpFault && (error.kind === 'not_found' || /doesn't exist|does not exist/.test(error.message)))
      return { ok: false, message: `the ERP has no model '${model}'` };
    return { ok: false, message: `fields_get of ${model} failed: ${erpErrorSummary(error)}` };
  }
  const notes: string[] = [];
  const facts: { title?: string; order?: string; indexed?: ReadonlySet<string> } = {};
  try {
    const rows = (await call('ir.model', 'search_read', { domain: [['model', '=', model]], fields: ['name', 'order'], limit: 1 })) as { name?: unknown; order?: unknown }[];
    if (typeof rows[0]?.name === 'string') facts.title = rows[0].name;
    if (typeof rows[0]?.order === 'string' && rows[0].order.trim()) facts.order = rows[0].order;
  } catch (error) {
    notes.push(`the model's _order is not known: ir.model could not be read with this key (${short(error)})`);
  }
  try {
    const rows = (await call('ir.model.fields', 'search_read', {
      domain: [
        ['model', '=', model],
        ['index', '!=', false],
      ],
      fields: ['name'],
    })) as { name?: unknown }[];
    facts.indexed = new Set(rows.map((row) => String(row.name)));
  } catch (error) {
    notes.push(`indexed fields are not known: ir.model.fields could not be read with this key (${short(error)})`);
  }
  return { ok: true, facts: { model, fields, ...facts, notes } };
}

function short(error: unknown): string {
  const summary = erpErrorSummary(error);
  return summary.split('\n')[0]?.slice(0, 160) ?? summary;
}
