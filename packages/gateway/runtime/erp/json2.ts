/**
 * @module JSON-2 transport (Odoo 19+): `POST /json/2/<model>/<method>` with the client's key as a
 * bearer token and named arguments. The key alone identifies the user, so a key of another account is
 * told apart from a wrong one (403 rather than 401 for the client).
 */
import { ErpFault, ErpUnavailable, faultKindOf, type ErpFaultKind } from './erp-error';
import { createHttpClient, postToErp, type HttpClient, type HttpAnswer } from './http-post';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';

/** The first Odoo version that serves JSON-2 (`/json/2/...`, `GET /web/version`). */
export const JSON2_SINCE = 19;

const KIND_BY_STATUS: Readonly<Record<number, ErpFaultKind>> = { 401: 'access_denied', 403: 'access_error', 404: 'not_found', 422: 'user_error' };

export class Json2Transport implements ErpTransport {
  readonly name = 'json2' as const;
  private readonly http: HttpClient;

  constructor(
    baseUrl: string,
    private readonly database: string,
    maxAnswerBytes?: number,
  ) {
    this.http = createHttpClient(baseUrl, maxAnswerBytes);
  }

  async version(deadline: AbortSignal): Promise<ErpVersion> {
    const version = await this.offered(deadline);
    if (!version) throw new ErpUnavailable('the ERP offers no JSON-2 API (no /web/version)');
    return version;
  }

  /** The ERP's version when it serves JSON-2 (Odoo 19+), `undefined` when it does not. */
  async offered(deadline: AbortSignal): Promise<ErpVersion | undefined> {
    const answer = await postToErp(this.http, '/web/version', '', {}, deadline, 'GET');
    const body = parseJson(answer) as { version?: unknown; version_info?: unknown[] } | undefined;
    if (answer.status !== 200 || !body || typeof body.version !== 'string') return undefined;
    const major = Number(body.version_info?.[0] ?? parseInt(body.version, 10));
    return major >= JSON2_SINCE ? { major, text: body.version } : undefined;
  }

  async identify(key: string, deadline: AbortSignal): Promise<number | false> {
    try {
      const context = (await this.post(key, 'res.users', 'context_get', {}, deadline)) as { uid?: unknown };
      return typeof context?.uid === 'number' ? context.uid : false;
    } catch (error) {
      if (error instanceof ErpFault && error.kind === 'access_denied') return false;
      throw error;
    }
  }

  call(credentials: ErpCredentials, call: ErpCall, deadline: AbortSignal): Promise<unknown> {
    const body = call.ids ? { ids: call.ids, ...call.kwargs } : call.kwargs;
    return this.post(credentials.key, call.model, call.method, body, deadline);
  }

  private async post(key: string, model: string, method: string, body: object, deadline: AbortSignal): Promise<unknown> {
    const answer = await postToErp(
      this.http,
      `/json/2/${model}/${method}`,
      JSON.stringify(body),
      { Authorization: `bearer ${key}`, 'X-Odoo-Database': this.database, 'Content-Type': 'application/json' },
      deadline,
    );
    const parsed = parseJson(answer);
    if (answer.status === 200) {
      if (parsed === undefined) throw new ErpUnavailable('JSON-2 answer is not JSON');
      return parsed;
    }
    const error = parsed as { name?: unknown; message?: unknown } | undefined;
    if (!error || typeof error.name !== 'string') throw new ErpUnavailable(`JSON-2 HTTP ${answer.status} without an error object`);
    const kind = KIND_BY_STATUS[answer.status] ?? faultKindOf(error.name);
    throw new ErpFault(kind, error.name, typeof error.message === 'string' ? error.message : '');
  }
}

function parseJson(answer: HttpAnswer): unknown {
  if (!answer.contentType.includes('json')) return undefined;
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}
