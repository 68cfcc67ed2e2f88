/**
 * @module Drops connections whose client stopped reading. Node's socket timeout does not do it: a
 * pipelined request arriving on the connection turns the timeout off, and a client that asks and
 * never reads leaves the answer's bytes queued in the gateway for as long as the connection lives.
 * Once a second, every connection with bytes waiting to be written is checked: if none of them has
 * left for `stallMs`, the connection is destroyed and what it held is freed. A slow reader still
 * makes progress and is left alone; a request waiting for the ERP has nothing queued and is not
 * concerned. One timer for the whole server: nothing per request.
 *
 * What has left is what the kernel took (`bytesTaken`). Node's public figures do not say it: its
 * `bytesWritten` counts every byte handed to the socket, those still queued in the gateway included,
 * and `writableLength` counts a write until all of it is taken (one 8 MB answer stays 8 MB queued
 * while the client reads 7 of them). Watching `bytesWritten` measured what the gateway queued, not
 * what the client took: a client reading steadily through one large answer was dropped, and a client
 * that read nothing while the gateway went on queueing answers (pipelined requests, as the kernel's
 * buffers filled) kept its connection for as long as that went on. The kernel takes bytes in steps
 * (about a third of its send buffer at a time), so a client counts as reading when it takes about that
 * much within `stallMs`.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const SWEEP_MS = 1000;

interface Progress {
  /** Bytes that had left the gateway (taken by the kernel, on their way to the client) at `since`. */
  sent: number;
  since: number;
}

export function dropStalledWriters(server: Server, stallMs: number): void {
  const sockets = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { sent: 0, since: 0 });
    socket.once('close', () => sockets.delete(socket));
  });
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [socket, progress] of sockets) {
      const sent = bytesTaken(socket);
      if (socket.writableLength === 0 || sent !== progress.sent) {
        progress.sent = sent;
        progress.since = now;
      } else if (now - progress.since >= stallMs) {
        socket.destroy();
      }
    }
  }, SWEEP_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/**
 * Bytes of `socket` the kernel has taken (on their way to the client): every byte dispatched to libuv
 * but those libuv still holds. Both figures are Node's internals (the socket's count of dispatched
 * bytes and its handle's `writeQueueSize`, which libuv lowers as the kernel takes bytes); without them
 * (another runtime), the completed writes, which move only once a whole write is taken.
 */
function bytesTaken(socket: Socket): number {
  const internals = socket as Socket & { _bytesDispatched?: unknown; _handle?: { writeQueueSize?: unknown } | null };
  const dispatched = internals._bytesDispatched;
  const held = internals._handle?.writeQueueSize;
  if (typeof dispatched === 'number' && typeof held === 'number') return dispatched - held;
  return socket.bytesWritten - socket.writableLength;
}
