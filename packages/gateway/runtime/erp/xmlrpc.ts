/**
 * @module XML-RPC transport (`/xmlrpc/2/common` and `/xmlrpc/2/object`, every Odoo version). Faults
 * arrive with HTTP 200; their integer code gives the class (3 access denied, 4 access error, 2 user
 * error, 1 anything else).
 */
import { ErpFault, ErpUnavailable, type ErpFaultKind } from './erp-error';
import { postToErp } from './http-post';
import { RpcTransport } from './rpc-transport';
import { decodeMethodResponse, encodeMethodCall, XmlRpcParseError, type MethodResponse, type XmlRpcValue } from '@ops-data-gateway/codec';

const KIND_BY_FAULT: Readonly<Record<number, [ErpFaultKind, string]>> = {
  2: ['user_error', 'odoo.exceptions.UserError'],
  3: ['access_denied', 'odoo.exceptions.AccessDenied'],
  4: ['access_error', 'odoo.exceptions.AccessError'],
};

export class XmlRpcTransport extends RpcTransport {
  readonly name = 'xmlrpc' as const;

  protected async rpc(service: string, method: string, params: readonly unknown[], deadline: AbortSignal): Promise<unknown> {
    const answer = await postToErp(
      this.http,
      `/xmlrpc/2/${service}`,
      encodeMethodCall({ methodName: method, params: params as readonly XmlRpcValue[] }),
      { 'Content-Type': 'text/xml' },
      deadline,
    );
    if (answer.status !== 200) throw new ErpUnavailable(`XML-RPC HTTP ${answer.status}`);
    let response: MethodResponse;
    try {
      response = decodeMethodResponse(answer.body);
    } catch (error) {
      // The parser's words quote the answer's values: kept as the cause (debug log), not in the message.
      if (error instanceof XmlRpcParseError) throw new ErpUnavailable('XML-RPC answer is not XML-RPC', { cause: error });
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
