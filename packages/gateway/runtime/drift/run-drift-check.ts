/**
 * @module One run of the catalogue drift check over the configured transport: identify the technical
 * account's key (ERP_CHECK_KEY), `fields_get` every model the catalogue needs, compare. Failures are
 * values with a code, never thrown: the start-up path and the CLI both branch on them.
 */
import { ErpFault, erpErrorSummary } from '../erp/erp-error';
import { ErpStats, type ErpClient } from '../erp/erp-client';
import type { ErpCredentials } from '../erp/transport';
import type { ResourceSpec } from '../resource-spec';
import { compareCatalogue } from './compare-catalogue';
import type { DriftProblem } from './drift-problem';
import { collectErpSchema, FIELD_ATTRIBUTES, type ErpField } from './erp-schema';

export type DriftCheckErrorCode =
  /** ERP_CHECK_KEY is not set. */
  | 'no_check_key'
  /** The ERP refuses ERP_CHECK_KEY. */
  | 'check_key_refused'
  /** The ERP could not be reached or failed to answer. */
  | 'erp_error';

export type DriftCheckResult =
  | { readonly ok: true; readonly problems: readonly DriftProblem[]; readonly models: number }
  | { readonly ok: false; readonly code: DriftCheckErrorCode; readonly message: string };

export async function runDriftCheck(erp: ErpClient, checkKey: string | undefined, resources: readonly ResourceSpec[]): Promise<DriftCheckResult> {
  if (!checkKey) return { ok: false, code: 'no_check_key', message: 'ERP_CHECK_KEY is not set (an API key of the technical account, used only for the drift check)' };
  const stats = new ErpStats();
  try {
    const uid = await erp.identify(checkKey, stats);
    if (uid === false) return { ok: false, code: 'check_key_refused', message: 'the ERP refuses ERP_CHECK_KEY' };
    const credentials: ErpCredentials = { uid, key: checkKey };
    const describe = async (model: string) => {
      try {
        return (await erp.call(credentials, { model, method: 'fields_get', ids: null, kwargs: { attributes: [...FIELD_ATTRIBUTES] } }, stats)) as Record<string, ErpField>;
      } catch (error) {
        if (isUnknownModel(error)) return null;
        throw error;
      }
    };
    const schema = await collectErpSchema(resources, describe);
    return { ok: true, problems: compareCatalogue(resources, schema), models: schema.size };
  } catch (error) {
    if (error instanceof ErpFault && error.kind === 'access_denied') return { ok: false, code: 'check_key_refused', message: 'the ERP refuses ERP_CHECK_KEY' };
    // For the operator (log, CLI), not a client: the ERP's own message helps and holds no credentials.
    return { ok: false, code: 'erp_error', message: `the ERP could not be asked: ${erpErrorSummary(error)}` };
  }
}

/**
 * Odoo answers `fields_get` on a model it does not have with "Object x doesn't exist" (UserError,
 * RPC) or a 404 naming the model (JSON-2).
 */
function isUnknownModel(error: unknown): boolean {
  if (!(error instanceof ErpFault)) return false;
  return error.kind === 'not_found' || (error.kind === 'user_error' && /doesn't exist|does not exist/.test(error.message));
}
