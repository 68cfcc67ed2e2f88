/**
 * @module Closing the server gracefully: no new connections, idle kept-alive ones closed at once, and
 * every request still in flight answered with `Connection: close`, so that its connection ends with
 * its answer instead of idling until the keep-alive timeout and holding the exit back.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Starts tracking the server's requests; the function returned closes it and settles once it is closed. */
export function createGracefulCloser(server: Server): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const track = (_req: IncomingMessage, res: ServerResponse) => {
    // A request that arrives on a kept-alive connection while closing is the last on it.
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  };
  server.on('request', track);
  server.on('checkExpectation', track);
  return () =>
    new Promise<void>((resolve) => {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.close(() => resolve());
      server.closeIdleConnections();
    });
}
