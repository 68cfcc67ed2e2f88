/**
 * @module The only place that turns an error into a response: the envelope `{error: {code, message}}`
 * with the status of the code. Anything unexpected is logged and becomes a bare 500 with no detail.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { types } from 'node:util';
import { GatewayError } from '../errors';
import type { Logger } from '../log';
import { erpErrorSummary } from '../erp/erp-error';
import { gatewayErrorOf } from './erp-errors';
import { maskSecrets } from './mask-secrets';
import { deadlineExpired } from '../request/request-context';
import { routeOf } from '../request/route-template';

export function sendError(res: Parameters<RequestHandler>[1], error: GatewayError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json({ error: { code: error.code, message: error.message } });
}

export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // The request deadline answered first: the handler's late failure (or its attempt to answer) is moot.
      if (deadlineExpired(res)) return;
      return next(error);
    }
    let known = gatewayErrorOf(error);
    if (!known && isBodyError(error)) known = new GatewayError('bad_request', 'The request could not be read.');
    if (!known) {
      // Not under `err`: pino's error serializer would copy every property back in.
      log.error({ error: summarize(error), method: req.method, route: routeOf(req) }, 'unexpected error');
      known = new GatewayError('internal_error', 'Internal error.');
    } else if (known.status >= 500 && known.cause) {
      res.locals['erpError'] = erpErrorSummary(known.cause);
      if (log.isLevelEnabled('debug')) log.debug({ method: req.method, erp_message: rawMessage(known.cause) }, 'ERP error message');
    }
    sendError(res, known);
  };
}

function isBodyError(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Type, message and stack of an unexpected error, and nothing else: its other properties may hold
 * what must never be logged (an HTTP client error carries the request, Authorization header included).
 */
function summarize(error: unknown): { type: string; message: string; stack?: string } {
  // isNativeError also knows errors made in another realm (a vm context), where instanceof fails.
  if (!(error instanceof Error || types.isNativeError(error))) return { type: typeof error, message: String(error).slice(0, 500) };
  return { type: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
}

/** The ERP's own words (and those of what caused the failure), for the `debug` log only, keys and e-mails masked. */
function rawMessage(cause: unknown): string {
  const parts: string[] = [];
  for (let error = cause, depth = 0; error instanceof Error && depth < 3; error = error.cause, depth++) parts.push(`${error.name}: ${error.message}`);
  return maskSecrets(parts.join(' <- ').slice(0, 2000));
}
