/**
 * @module What the ERP says of the models the catalogue uses: `fields_get` of every resource model,
 * of the comodels of `related` fields, and of the models dotted filter and scope paths pass through.
 */
import type { ResourceSpec } from '../resource-spec';

/** The `fields_get` attributes the drift check asks for (nothing more: the answer stays small). */
/** `groupable` exists from 18 on; on 17 a grouped read needs a stored column (`store`). */
export const FIELD_ATTRIBUTES = ['type', 'relation', 'selection', 'store', 'sortable', 'searchable', 'groupable'] as const;

export interface ErpField {
  readonly type: string;
  readonly relation?: string;
  readonly selection?: readonly (readonly [string, string])[];
  readonly store?: boolean;
  readonly sortable?: boolean;
  readonly searchable?: boolean;
  readonly groupable?: boolean;
}

/** Model → its fields, or `null` when the ERP has no such model. */
export type ErpSchema = ReadonlyMap<string, Readonly<Record<string, ErpField>> | null>;

/** `fields_get` of one model; `null` when the model does not exist. */
export type DescribeModel = (model: string) => Promise<Readonly<Record<string, ErpField>> | null>;

/** Describes every model the catalogue needs, in rounds: a dotted path's next hop is known only from the ERP. */
export async function collectErpSchema(resources: readonly ResourceSpec[], describe: DescribeModel): Promise<ErpSchema> {
  const schema = new Map<string, Readonly<Record<string, ErpField>> | null>();
  let wanted = new Set<string>();
  for (const resource of resources) {
    wanted.add(resource.model);
    for (const field of resource.fields) if (field.source.kind === 'related') wanted.add(field.source.comodel);
  }
  while (wanted.size > 0) {
    const models = [...wanted].filter((model) => !schema.has(model));
    const described = await describeAll(models, describe, schema.size === 0);
    for (const [i, model] of models.entries()) schema.set(model, described[i] ?? null);
    wanted = new Set();
    for (const resource of resources)
      for (const path of [...resource.filters.map((f) => f.erp), ...resource.scope.map((s) => s.erp)])
        for (const model of hopModels(schema, resource.model, path)) if (!schema.has(model)) wanted.add(model);
  }
  return schema;
}

/** The comodels a dotted path goes through, as far as the schema described so far knows them. */
function hopModels(schema: ErpSchema, model: string, path: string): string[] {
  const hops = path.split('.');
  const models: string[] = [];
  let current: string | undefined = model;
  for (const hop of hops.slice(0, -1)) {
    const relation: string | undefined = current === undefined ? undefined : schema.get(current)?.[hop]?.relation;
    if (!relation) break;
    models.push(relation);
    current = relation;
  }
  return models;
}

/**
 * At most this many `fields_get` calls at once. Real Odoo checks an RPC key by a deliberately slow
 * password hash (~0.4 s of CPU) until its credential cache holds it: dozens of calls sent at once all
 * miss that cache and the check times out on a 2-core ERP. So the first call goes alone, to fill the
 * cache, and the rest follow a few at a time.
 */
const DESCRIBE_CONCURRENCY = 4;

async function describeAll(models: readonly string[], describe: DescribeModel, first: boolean): Promise<(Readonly<Record<string, ErpField>> | null)[]> {
  const results: (Readonly<Record<string, ErpField>> | null)[] = new Array(models.length);
  let next = 0;
  if (first && models.length > 0) results[next] = await describe(models[next++] as string);
  const worker = async () => {
    while (next < models.length) {
      const index = next++;
      results[index] = await describe(models[index] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DESCRIBE_CONCURRENCY, models.length) }, worker));
  return results;
}
