/**
 * @module An ERP that answers from memory (`make bench`, rows "… ERP answers from memory"): a
 * reverse proxy in front of the sandbox that forwards each distinct request (method, path,
 * credentials, body) once and replays the recorded answer after that. Behind it, a process under
 * test never waits for ERP work, so its CPU per request shows what it costs by itself, without the
 * cost of going idle and waking up again that every request pays at concurrency 1 against a real ERP.
 *
 * Input: the port, then the ERP origin. Every call the gateway makes is a read, so replaying is safe.
 */
import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

interface Recorded {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const [port, origin] = process.argv.slice(2) as [string, string];
const upstream = new URL(origin);
const recorded = new Map<string, Recorded>();

function send(res: ServerResponse, answer: Recorded): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body.toString('latin1')}`;
    const known = recorded.get(key);
    if (known) return send(res, known);
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => parts.push(chunk));
      answer.on('end', () => {
        const headers: IncomingHttpHeaders = { ...answer.headers };
        delete headers['transfer-encoding'];
        const entry: Recorded = { status: answer.statusCode ?? 502, headers, body: Buffer.concat(parts) };
        headers['content-length'] = String(entry.body.length);
        recorded.set(key, entry);
        send(res, entry);
      });
    });
    forward.on('error', (error) => res.writeHead(502).end(String(error)));
    forward.end(body);
  });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`memo erp listening on ${port}\n`));
