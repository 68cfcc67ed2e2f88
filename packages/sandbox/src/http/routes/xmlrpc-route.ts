/**
 * @module XML-RPC: `POST /xmlrpc/2/<service>` (integer fault codes) and the legacy
 * `POST /xmlrpc/<service>` (string fault codes). Every answer, fault or not, is HTTP 200 `text/xml`
 * (odoo-external-api.md, sections 2.3 and 2.4).
 */
import { XmlRpcDateTime, XmlRpcMarshalError, decodeMethodCall, encodeFault, encodeMethodResponse, type MethodCall, type XmlRpcValue } from '@ops-data-gateway/codec';
import { asPyException, formatTraceback, isUserError, PyException } from '../py-exception';
import type { SandboxReply, SandboxRequest } from '../reply';
import { dispatchRpc } from '../services/dispatch-rpc';
import type { RpcContext } from '../services/rpc-context';

export type FaultStyle = 'int' | 'string';

export async function handleXmlRpc(context: RpcContext, service: string, style: FaultStyle, request: SandboxRequest): Promise<SandboxReply> {
  let body: string;
  try {
    const call = parseCall(request.body);
    const result = await dispatchRpc(context, service, call.methodName, call.params.map(toPythonValue));
    body = marshalResult(result);
  } catch (error) {
    body = style === 'int' ? intFault(asPyException(error, context.reportBug)) : stringFault(asPyException(error, context.reportBug));
  }
  return { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8' }, body };
}

function parseCall(body: Buffer): MethodCall {
  try {
    return decodeMethodCall(body);
  } catch (error) {
    // xmlrpc.client.loads raises expat's error (or ResponseError) before any dispatch: fault 1.
    throw new PyException('xml.parsers.expat.ExpatError', error instanceof Error ? error.message : String(error));
  }
}

function marshalResult(result: unknown): string {
  try {
    return encodeMethodResponse(result as XmlRpcValue);
  } catch (error) {
    if (error instanceof XmlRpcMarshalError) throw new PyException('builtins.TypeError', error.message);
    throw error;
  }
}

/**
 * What Odoo's methods receive from `loads(data, use_datetime=True)`: datetimes compare as Odoo's
 * `YYYY-MM-DD HH:MM:SS` strings, binaries as their base64 text.
 */
function toPythonValue(value: XmlRpcValue): unknown {
  if (value instanceof XmlRpcDateTime) return value.toOdooString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(toPythonValue);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: toPythonValue(member), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** `xmlrpc_handle_exception_int`. */
function intFault(error: PyException): string {
  switch (error.pythonName) {
    case 'odoo.exceptions.RedirectWarning':
      return encodeFault(2, error.message);
    case 'odoo.exceptions.AccessError':
      return encodeFault(4, error.message);
    case 'odoo.exceptions.AccessDenied':
      return encodeFault(3, error.message);
    default:
      return isUserError(error) ? encodeFault(2, error.message) : encodeFault(1, formatTraceback(error));
  }
}

/** `xmlrpc_handle_exception_string` (legacy `/xmlrpc/<service>`). */
function stringFault(error: PyException): string {
  switch (error.pythonName) {
    case 'odoo.exceptions.RedirectWarning':
      return encodeFault(`warning -- Warning\n\n${error.message}`, '');
    case 'odoo.exceptions.MissingError':
      return encodeFault(`warning -- MissingError\n\n${error.message}`, '');
    case 'odoo.exceptions.AccessError':
      return encodeFault(`warning -- AccessError\n\n${error.message}`, '');
    case 'odoo.exceptions.AccessDenied':
      return encodeFault('AccessDenied', error.message);
    default:
      return isUserError(error) ? encodeFault(`warning -- UserError\n\n${error.message}`, '') : encodeFault(error.message, formatTraceback(error));
  }
}
