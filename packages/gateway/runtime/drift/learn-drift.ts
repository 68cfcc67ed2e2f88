/**
 * @module Catalogue drift learned from the ERP's own errors, for a gateway with no ERP_CHECK_KEY
 * (and for drift that appears after the start-up check). Odoo names exactly what it lacks:
 * "Invalid field 'x' on model 'y'" (read, order), "Invalid field y.x in leaf/condition …" (domain),
 * "Object y doesn't exist" (RPC) or a JSON-2 404 "the model 'y' does not exist". These say the same
 * to every account, unlike `fields_get` asked with a client's key, which leaves out the fields that
 * key's groups may not read: trusting it would answer `null` to everyone for a field one client
 * cannot see. A fact is turned into the problems the start-up check would have reported for it.
 */
import { ErpFault } from '../erp/erp-error';
import type { ResourceSpec } from '../resource-spec';
import { orderFields } from './compare-catalogue';
import { DriftProblems, type DriftProblem } from './drift-problem';

/** What an ERP error says is missing. */
export type MissingInErp = { readonly kind: 'missing_model'; readonly model: string } | { readonly kind: 'missing_field'; readonly model: string; readonly field: string };

const NAME = '[a-z0-9_]+';
const MODEL = `${NAME}(?:\\.${NAME})*`;
/** `read`, `search_read` and `order`: "Invalid field 'x' on model 'y'" (17/18), "Invalid field 'x' on 'y'" (19 read). */
const QUOTED_FIELD = new RegExp(`Invalid field '(${NAME})' on (?:model )?'(${MODEL})'`);
/** A domain: "Invalid field y.x in leaf ('x', '=', 1)" (17/18) or "… in condition (…)" (19). */
const DOMAIN_FIELD = new RegExp(`Invalid field (${MODEL})\\.(${NAME}) in (?:leaf|condition)\\b`);
/** RPC: "Object y doesn't exist"; JSON-2: 404 "the model 'y' does not exist". */
const RPC_MODEL = new RegExp(`Object (${MODEL}) doesn't exist`);
const JSON2_MODEL = new RegExp(`the model '(${MODEL})' does not exist`);

/** What the error says the ERP lacks, if it says so in one of Odoo's own words. */
export function missingInErp(error: unknown): MissingInErp | undefined {
  if (!(error instanceof ErpFault)) return undefined;
  const text = error.message;
  if (error.kind === 'server_error') {
    const quoted = QUOTED_FIELD.exec(text);
    if (quoted) return { kind: 'missing_field', model: quoted[2] as string, field: quoted[1] as string };
    const domain = DOMAIN_FIELD.exec(text);
    if (domain) return { kind: 'missing_field', model: domain[1] as string, field: domain[2] as string };
    return undefined;
  }
  const model = (error.kind === 'user_error' ? RPC_MODEL : error.kind === 'not_found' ? JSON2_MODEL : undefined)?.exec(text);
  return model ? { kind: 'missing_model', model: model[1] as string } : undefined;
}

/** The problems `missing` causes in each resource of the catalogue, as the drift check words them. */
export function problemsOf(missing: MissingInErp, resources: readonly ResourceSpec[]): DriftProblem[] {
  const problems = new DriftProblems();
  const { model } = missing;
  const field = missing.kind === 'missing_field' ? missing.field : '';
  const detail = missing.kind === 'missing_model' ? `model ${model} does not exist in the ERP` : `field ${model}.${field} does not exist in the ERP`;
  for (const resource of resources) {
    const add = (use: string) => problems.add(resource.path, missing.kind, model, field, detail, use);
    if (missing.kind === 'missing_model' && resource.model === model) {
      add('resource');
      continue;
    }
    for (const spec of resource.fields) {
      const source = spec.source;
      if (source.kind === 'id' || source.kind === 'url') continue;
      const own = resource.model === model && source.erp === field;
      const related = source.kind === 'related' && source.comodel === model && (missing.kind === 'missing_model' || source.comodelField === field);
      if (own || related) add(`field ${spec.name}`);
    }
    if (missing.kind === 'missing_model') continue;
    for (const filter of resource.filters) if (pathNeeds(resource, filter.erp, missing)) add(`filter ${filter.name}`);
    for (const term of resource.scope) if (pathNeeds(resource, term.erp, missing)) add('scope');
    if (resource.model !== model) continue;
    if (orderFields(resource.defaultOrder).includes(field)) add('default order');
    for (const [api, erp] of Object.entries(resource.sortable)) if (erp === field) add(`order ${api}`);
  }
  return problems.list();
}

/**
 * Whether a dotted filter or scope path may go through the missing field. A hop's model is known for
 * the first hop (the resource's model) and for the second when the catalogue reads the first as a
 * relation; past that it is unknown, and a hop of that name counts: an unavailable filter (503) is
 * the safe answer, a filter silently dropped or a scope left out never is.
 */
function pathNeeds(resource: ResourceSpec, path: string, missing: Extract<MissingInErp, { kind: 'missing_field' }>): boolean {
  const hops = path.split('.');
  return hops.some((hop, i) => {
    if (hop !== missing.field) return false;
    if (i === 0) return resource.model === missing.model;
    if (i === 1) {
      const comodel = comodelOf(resource, hops[0] as string);
      return comodel === undefined || comodel === missing.model;
    }
    return true;
  });
}

function comodelOf(resource: ResourceSpec, erpField: string): string | undefined {
  for (const spec of resource.fields) {
    const source = spec.source;
    if ((source.kind === 'many2one' || source.kind === 'related' || source.kind === 'x2many') && source.erp === erpField) return source.comodel;
  }
  return undefined;
}
