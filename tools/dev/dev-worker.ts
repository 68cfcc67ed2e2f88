/**
 * @module The gateway process `make dev` keeps ready for the next save (a cluster worker of the
 * launcher): started ahead, it loads the gateway's dependencies at once (express, ajv, undici, the MCP
 * SDK...: the modules the last bundle requires), then waits; told a bundle, it runs it as production
 * runs it (the bundle's main starts the gateway). A save then waits only for the bundle itself and the
 * app to start, not for Node and the dependencies.
 */
import { readFileSync } from 'node:fs';

/** Loaded only when the gateway's settings ask for them (traces, metrics): not ahead. */
const ON_DEMAND = /^(@opentelemetry\/|prom-client$)/;

const previous = process.env['DEV_GATEWAY_PRELOAD_FROM'];
if (previous) {
  for (const [, name] of readFileSync(previous, 'utf8').matchAll(/require\("([^"]+)"\)/g)) {
    if (!name || name.startsWith('node:') || ON_DEMAND.test(name)) continue;
    try {
      require(name);
    } catch {
      // Not loadable from here: the bundle loads it (or fails) as it would without this.
    }
  }
}

process.once('message', (message: unknown) => {
  const bundle = (message as { bundle?: unknown } | null)?.bundle;
  if (typeof bundle !== 'string') return;
  process.argv[1] = bundle;
  require(bundle);
});
