/**
 * @module The gateway's one logger: structured JSON lines (pino). Request lines carry no key (only a
 * short hash prefix) and no record values; the ERP's own error texts are logged, never returned. A line
 * written while a request is served carries its `request_id`.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { currentScope } from './request/request-context';

export type { Logger };

/**
 * Standard output, written asynchronously in batches: each write is a system call, which costs about
 * 0.1 ms here, more than the rest of a request's logging. Flushed every second and at exit.
 */
export function bufferedStdout(): DestinationStream & { flush(): void } {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8192 });
  setInterval(() => destination.flush(), 1000).unref();
  return destination;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'ops-data-gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Defence in depth: these paths never hold what they name, but if one ever did it is hidden.
      redact: { paths: ['authorization', 'key', '*.authorization', '*.key', 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      // Every line written while a request is served names it: its access line, its errors, what it taught the drift check.
      mixin: () => {
        const scope = currentScope();
        return scope ? { request_id: scope.id } : {};
      },
    },
    destination,
  );
}
