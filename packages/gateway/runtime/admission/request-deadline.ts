/**
 * @module A deadline on the whole of a data request (REQUEST_TIMEOUT_MS): each ERP call has its own
 * timeout, but a request may wait for a free ERP slot and then make several rounds of calls, so
 * without this a slow ERP could keep a client waiting a multiple of the timeout. At the deadline
 * the client gets 504 `gateway_timeout`; whatever the handler still does (its ERP calls end at
 * their own deadlines) is dropped, and the error handler ignores its late failure.
 */
import type { RequestHandler, Response } from 'express';
import { GatewayError } from '../errors';
import { markDeadlineExpired } from '../request/request-context';

export function requestDeadline(
  timeoutMs: number,
  /** How an error is answered (http/error-handler.ts `sendError`): admission decides, the HTTP layer speaks. */
  sendError: (res: Response, error: GatewayError) => void,
): RequestHandler {
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`requestDeadline: timeout must be a positive integer (got ${timeoutMs})`);
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      markDeadlineExpired(res, `request deadline of ${timeoutMs} ms reached`);
      sendError(res, new GatewayError('gateway_timeout', 'The ERP did not answer in time.'));
    }, timeoutMs);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
