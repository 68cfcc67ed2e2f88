/**
 * CLIENT_WRITE_TIMEOUT_MS drops a connection whose client stopped reading, and only such a one: what
 * counts is whether bytes leave the gateway, not whether it queued more. A client reading steadily
 * through one large answer (a 16 MB write, which Node counts as queued until the last byte is taken)
 * gets all of it however long that takes; a client that reads nothing loses its connection once its
 * answer has stopped moving. Both over real sockets, with the gateway's own server (harden-server.ts).
 */
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createGatewayServer } from '@ops-data-gateway/gateway/runtime/server/harden-server';

const STALL_MS = 4000;
const BODY = Buffer.alloc(16 * 1024 * 1024, 'x');
/** The slow reader takes this much, then waits this long: about 2.5 MB/s, some 6.5 s for the answer (longer than STALL_MS). */
const BURST_BYTES = 512 * 1024;
const PAUSE_MS = 200;

describe('connections whose answers do not move (CLIENT_WRITE_TIMEOUT_MS)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createGatewayServer(
      (_req, res) => {
        res.setHeader('Content-Type', 'application/octet-stream');
        res.setHeader('Content-Length', BODY.length);
        res.end(BODY);
      },
      10000,
      STALL_MS,
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const ask = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
      socket.once('error', reject);
      socket.write('GET / HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n');
    });

  it('a client reading steadily through one 16 MB answer gets all of it, though that takes longer than the limit', async () => {
    const socket = await ask();
    const started = performance.now();
    let received = 0;
    let head = '';
    let burst = 0;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (head.length < 1024) head += chunk.subarray(0, 1024).toString('latin1');
      received += chunk.length;
      burst += chunk.length;
      if (burst < BURST_BYTES) return;
      burst = 0;
      socket.pause();
      setTimeout(() => socket.resume(), PAUSE_MS);
    });
    await closed;
    // Every byte of the answer arrived, and it took longer than the limit: the check meant something.
    expect(head.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(received - (head.indexOf('\r\n\r\n') + 4)).toBe(BODY.length);
    expect(performance.now() - started).toBeGreaterThan(STALL_MS);
  }, 60000);

  it('a client that reads nothing loses its connection once its answer has stopped moving', async () => {
    const socket = await ask();
    socket.pause();
    socket.on('error', () => undefined);
    const started = performance.now();
    // The server's end closes; the client, not reading, learns it only once it reads what the kernel holds.
    const connections = () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    while ((await connections()) > 0 && performance.now() - started < 30000) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connections()).toBe(0);
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.resume();
    await closed;
    expect(received).toBeLessThan(BODY.length);
  }, 60000);
});
