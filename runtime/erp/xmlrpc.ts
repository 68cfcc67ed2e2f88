/**
 * @module XML-RPC transport (`/xmlrpc/2/common` and `/xmlrpc/2/object`, every Odoo version). Faults
 * arrive with HTTP 200; their integer code gives the class (3 access denied, 4 access error, 2 user
 * error, 1 anything else).
 */
import { ErpFault, ErpUnavailable, type ErpFaultKind } from './erp-error';
import { createHttpClient, postToErp, type HttpClient } from './http-post';
import type { ErpCall, ErpCredentials, ErpTransport, ErpVersion } from './transport';
import { decodeMethodResponse, encodeMethodCall, XmlRpcParseError, type XmlRpcValue } from './xmlrpc-codec';

const KIND_BY_FAULT: Readonly<Record<number, [ErpFaultKind, string]>> = {
  2: ['user_error', 'odoo.exceptions.UserError'],
  3: ['access_denied', 'odoo.exceptions.AccessDenied'],
  4: ['access_error', 'odoo.exceptions.AccessError'],
};

export class XmlRpcTransport implements ErpTransport {
  readonly name = 'xmlrpc' as const;
  private readonly http: HttpClient;

  constructor(baseUrl: string, private readonly database: string, private readonly login: string) {
    this.http = createHttpClient(baseUrl);
  }

  async version(deadline: AbortSignal): Promise<ErpVersion> {
    const result = (await this.rpc('common', 'version', [], deadline)) as { server_version?: unknown; server_version_info?: unknown[] };
    if (!result || typeof result.server_version !== 'string') throw new ErpUnavailable('common.version gave no server_version');
    return { major: Number(result.server_version_info?.[0] ?? parseInt(result.server_version, 10)), text: result.server_version };
  }

  async identify(key: string, deadline: AbortSignal): Promise<number | false> {
    const uid = await this.rpc('common', 'authenticate', [this.database, this.login, key, {}], deadline);
    return typeof uid === 'number' && uid > 0 ? uid : false;
  }

  call(credentials: ErpCredentials, call: ErpCall, deadline: AbortSignal): Promise<unknown> {
    const args = call.ids ? [call.ids] : [];
    return this.rpc('object', 'execute_kw', [this.database, credentials.uid, credentials.key, call.model, call.method, args, call.kwargs], deadline);
  }

  private async rpc(service: string, method: string, params: readonly unknown[], deadline: AbortSignal): Promise<unknown> {
    const answer = await postToErp(this.http, `/xmlrpc/2/${service}`, encodeMethodCall({ methodName: method, params: params as readonly XmlRpcValue[] }), { 'Content-Type': 'text/xml' }, deadline);
    if (answer.status !== 200) throw new ErpUnavailable(`XML-RPC HTTP ${answer.status}`);
    let response;
    try {
      response = decodeMethodResponse(answer.body);
    } catch (error) {
      if (error instanceof XmlRpcParseError) throw new ErpUnavailable(`XML-RPC answer is not XML-RPC: ${error.message}`);
      throw error;
    }
    if (response.kind === 'fault') {
      const code = typeof response.faultCode === 'number' ? response.faultCode : 1;
      const [kind, name] = KIND_BY_FAULT[code] ?? (['server_error', 'builtins.Exception'] as const);
      throw new ErpFault(kind, name, String(response.faultString ?? ''));
    }
    return response.value;
  }
}
