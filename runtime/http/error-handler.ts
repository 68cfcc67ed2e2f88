/**
 * @module The only place that turns an error into a response: the envelope `{error: {code, message}}`
 * with the status of the code. Anything unexpected is logged and becomes a bare 500 with no detail.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { GatewayError } from '../errors';
import type { Logger } from '../log';
import { gatewayErrorOf } from './erp-errors';

export function sendError(res: Parameters<RequestHandler>[1], error: GatewayError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json({ error: { code: error.code, message: error.message } });
}

export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    let known = gatewayErrorOf(error);
    if (!known && isBodyError(error)) known = new GatewayError('bad_request', 'The request could not be read.');
    if (!known) {
      log.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
      known = new GatewayError('internal_error', 'Internal error.');
    } else if (known.status >= 500 && known.cause) {
      res.locals['erpError'] = describe(known.cause);
    }
    sendError(res, known);
  };
}

function isBodyError(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function describe(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
