/**
 * @module An OTLP/HTTP receiver that accepts every export and keeps nothing (`make bench`, tracing
 * on): the gateway's traces go somewhere real, over HTTP, without a collector to install.
 *
 * Input: the port.
 */
import { createServer } from 'node:http';

const [port] = process.argv.slice(2) as [string];
let spansBytes = 0;
createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (spansBytes += chunk.length));
  req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`otlp sink listening on ${port}\n`));
process.on('SIGTERM', () => {
  process.stdout.write(`otlp sink received ${spansBytes} bytes\n`);
  process.exit(0);
});
