/**
 * @module Closing the server gracefully: no new connections, idle kept-alive ones closed at once, and
 * every request still in flight answered with `Connection: close`, so that its connection ends with
 * its answer instead of idling until the keep-alive timeout and holding the exit back.
 *
 * Answers are tracked per connection and forgotten when the connection goes: an answer queued behind
 * others on a pipelining connection never emits `close` if the client leaves first, and holding it
 * here would keep its whole body in memory for good (a client asking for the OpenAPI document fifty
 * times per connection and hanging up grew the heap by hundreds of megabytes).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface GracefulCloser {
  /**
   * Stops the server; settles once it is closed, with the number of answers cut while closing (Node
   * closes a connection whose answer is complete on the gateway's side but not yet read by its
   * client, such as one that stopped reading).
   *
   * `keepIdle` (a worker retired by a reload, while others serve the port): idle kept-alive
   * connections are not closed at once, since a client may be sending its next request on one right
   * then and would see it cut; the next request on each is answered with `Connection: close`, and one
   * that stays idle closes at the keep-alive timeout the client was told (`Keep-Alive: timeout=5`).
   */
  close(options?: { readonly keepIdle?: boolean }): Promise<number>;
  /** Answers not yet written in full. */
  readonly inFlight: number;
}

/** Starts tracking the server's requests; the function returned closes it and settles once it is closed. */
export function createGracefulCloser(server: Server): GracefulCloser {
  const bySocket = new Map<Socket, Set<ServerResponse>>();
  let closing = false;
  const track = (req: IncomingMessage, res: ServerResponse) => {
    // A request that arrives on a kept-alive connection while closing is the last on it.
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
    const socket = req.socket;
    let answers = bySocket.get(socket);
    if (!answers) {
      const set = new Set<ServerResponse>();
      answers = set;
      bySocket.set(socket, set);
      socket.once('close', () => bySocket.delete(socket));
    }
    const own = answers;
    own.add(res);
    res.once('close', () => own.delete(res));
  };
  server.on('request', track);
  server.on('checkExpectation', track);
  return {
    close: (options = {}) =>
      new Promise<number>((resolve) => {
        closing = true;
        // An answer fully handed to its socket but not yet read by the client (bytes still queued)
        // belongs to a finished request: Node closes such a connection at once, cutting the answer.
        let cut = 0;
        for (const [socket, answers] of bySocket) {
          if (socket.writableLength > 0) cut++;
          for (const res of answers) if (!res.headersSent) res.setHeader('Connection', 'close');
        }
        if (options.keepIdle) {
          // Node's server.close() closes idle connections itself (since Node 19): not these.
          server.closeIdleConnections = () => undefined;
        }
        server.close(() => resolve(cut));
        if (!options.keepIdle) server.closeIdleConnections();
      }),
    get inFlight() {
      let count = 0;
      for (const answers of bySocket.values()) count += answers.size;
      return count;
    },
  };
}
