/**
 * @module Drops connections whose client stopped reading. Node's socket timeout does not do it: a
 * pipelined request arriving on the connection turns the timeout off, and a client that asks and
 * never reads leaves the answer's bytes queued in the gateway for as long as the connection lives.
 * Once a second, every connection with bytes waiting to be written is checked: if none of them has
 * left for `stallMs`, the connection is destroyed and what it held is freed. A slow reader still
 * makes progress and is left alone; a request waiting for the ERP has nothing queued and is not
 * concerned. One timer for the whole server: nothing per request.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const SWEEP_MS = 1000;

interface Progress {
  written: number;
  since: number;
}

export function dropStalledWriters(server: Server, stallMs: number): void {
  const sockets = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { written: 0, since: 0 });
    socket.once('close', () => sockets.delete(socket));
  });
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [socket, progress] of sockets) {
      if (socket.writableLength === 0 || socket.bytesWritten !== progress.written) {
        progress.written = socket.bytesWritten;
        progress.since = now;
      } else if (now - progress.since >= stallMs) {
        socket.destroy();
      }
    }
  }, SWEEP_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
