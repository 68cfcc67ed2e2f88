/**
 * @module The ERP's side of the cache benchmark (`make bench`, "dashboard load" and "coalescing"): a
 * reverse proxy in front of the sandbox that forwards every request and counts them by ERP method
 * (the last segment of a JSON-2 path), so the benchmark can say how many calls reached the ERP.
 * `GET /__counts` answers the counts so far; `POST /__reset` sets them to zero.
 *
 * Input: the port, then the ERP origin.
 */
import { createServer, request } from 'node:http';

const [port, origin] = process.argv.slice(2) as [string, string];
const upstream = new URL(origin);
let counts: Record<string, number> = {};

createServer((req, res) => {
  if (req.url === '/__counts') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(counts));
  if (req.url === '/__reset') {
    counts = {};
    return void res.writeHead(204).end();
  }
  const method = req.url?.split('?')[0]?.split('/').pop() ?? '';
  counts[method] = (counts[method] ?? 0) + 1;
  const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  forward.on('error', (error) => res.writeHead(502).end(String(error)));
  req.pipe(forward);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`counting proxy listening on ${port}\n`));
