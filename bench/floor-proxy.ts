/**
 * @module The floor the gateway is measured against (`make bench`, row "floor"): the least a Node
 * process can do for a list request. It answers every request by sending one fixed ERP call (the one
 * the gateway sends for scenario 2) through the same HTTP client library as the gateway, parsing the
 * answer and writing it back as JSON. No framework, no authentication, no validation, no mapping,
 * no log: what is left is Node's HTTP on both sides, two JSON passes and the waits on the sockets.
 *
 * Input: the port, then the ERP origin, then the ERP call as one JSON argument (a LoadRequest).
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import type { LoadRequest } from './load-generator';

const [port, origin, callJson] = process.argv.slice(2) as [string, string, string];
const call = JSON.parse(callJson) as LoadRequest;
const pool = new Pool(origin, { connections: 8 });

createServer((req, res) => {
  req.resume();
  pool
    .request({ path: call.path, method: call.method, headers: call.headers ?? {}, ...(call.body ? { body: call.body } : {}) })
    .then(async (answer) => {
      const rows = (await answer.body.json()) as unknown[];
      const text = JSON.stringify({ data: rows, meta: {} });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    })
    .catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`floor proxy listening on ${port}\n`));
