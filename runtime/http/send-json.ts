/**
 * @module Writes a data answer as JSON straight to the response. Express's `res.json` goes through
 * `res.send`, which also computes freshness and charset and converts the text to a Buffer: work a
 * data answer never needs (it carries no validator and is never stored, see no-store.ts) on the
 * gateway's hottest path. Node drops the body of an answer to HEAD by itself.
 */
import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
