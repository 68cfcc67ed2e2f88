/**
 * @module Requests the gateway refuses by their shape, before any route: HTTP/1.1 without `Host`
 * (RFC 9112 requires it; Node would answer a bare 400 itself, so main.ts leaves it to this middleware,
 * which answers in the error envelope), and a GET or HEAD carrying a body. The API reads no request
 * body; without this, Node would drain an endless one for as long as the request timeout allows.
 * The answer says `Connection: close`, so the connection ends with it and the rest is never read.
 */
import type { RequestHandler } from 'express';
import { badRequest } from '../errors';
import { sendError } from './error-handler';

export function refuseMisshapenRequests(): RequestHandler {
  return (req, res, next) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) return refuse(res, 'HTTP/1.1 requests need a Host header.');
    const length = req.headers['content-length'];
    const bodyless = req.method === 'GET' || req.method === 'HEAD';
    if (bodyless && (req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))) return refuse(res, 'A request to this API carries no body.');
    next();
  };
}

function refuse(res: Parameters<RequestHandler>[1], message: string): void {
  res.setHeader('Connection', 'close');
  sendError(res, badRequest(message));
}
