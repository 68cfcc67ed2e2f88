/**
 * The live JavaScript heap of a gateway process, measured through its own inspector (the process is
 * started with `--inspect=127.0.0.1:0`): a full garbage collection, then the bytes still used. That
 * figure is what a leak grows; resident memory (RSS) also moves with the allocator's arenas, V8's
 * code space and how many requests happen to be in flight when it is read, which depends on how
 * loaded the machine is, so it cannot tell a leak from a busy neighbour.
 */

/** The inspector's WebSocket address, as the process printed it on stderr. */
export function inspectorUrl(stderr: readonly string[]): string {
  for (const line of stderr) {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(line);
    if (match) return match[1] as string;
  }
  throw new Error(`the process printed no inspector address (was it started with --inspect?): ${stderr.join('\n')}`);
}

/** Bytes of the JavaScript heap still in use after a full garbage collection of the process. */
export async function liveHeapBytes(url: string): Promise<number> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), { once: true });
  });
  let nextId = 1;
  const send = (method: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: unknown };
        if (message.id !== id) return;
        socket.removeEventListener('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result ?? {});
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    // Twice: objects freed by the first collection's finalisers (weak maps, sockets) go in the second.
    await send('HeapProfiler.collectGarbage');
    await send('HeapProfiler.collectGarbage');
    const usage = await send('Runtime.getHeapUsage');
    return Number(usage['usedSize']);
  } finally {
    socket.close();
  }
}
