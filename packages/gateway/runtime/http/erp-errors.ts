/**
 * @module The one translation of ERP failures into client errors (decisions D22, D23): the ERP layer
 * (erp/) raises only its own errors (erp-error.ts), and this is where they become HTTP statuses. The
 * ERP's own message goes to the log, never to the client.
 */
import { ErpBusy, ErpFault, ErpTimeout, ErpTransportMissing, ErpUnavailable } from '../erp/erp-error';
import { forbidden, GatewayError, unauthorized } from '../errors';

export function gatewayErrorOf(error: unknown): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  // The gateway's own bound, not the ERP's failure: nothing to log beyond the status.
  if (error instanceof ErpBusy) return new GatewayError('unavailable', 'The ERP is busy: too many requests in flight. Retry shortly.', { headers: { 'Retry-After': '1' } });
  if (error instanceof ErpTimeout) return new GatewayError('gateway_timeout', 'The ERP did not answer in time.', { cause: error });
  // A setting the ERP cannot serve: the process is stopping (main.ts); the log names the setting.
  if (error instanceof ErpTransportMissing)
    return new GatewayError('unavailable', "The gateway's ERP settings do not fit this ERP; its log says which one to change.", { cause: error });
  if (error instanceof ErpUnavailable) return new GatewayError('bad_gateway', 'The ERP is unreachable or gave an answer that could not be understood.', { cause: error });
  if (error instanceof ErpFault) {
    if (error.kind === 'access_denied') return unauthorized('The API key is invalid or expired.');
    if (error.kind === 'access_error') return forbidden('The API account is not allowed to read this data.');
    return new GatewayError('bad_gateway', 'The ERP refused the request; the gateway logged the reason.', { cause: error });
  }
  return undefined;
}
