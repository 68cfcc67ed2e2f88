/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it when missing) for the suites that test
 * the shared state: on a loopback port of its own, in a fresh directory, with no persistence, so that
 * every suite starts from an empty Redis and leaves nothing behind. It can be killed, paused
 * (SIGSTOP: connections stay open, nothing answers) and started again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port';

const REDIS_SERVER = process.env['REDIS_SERVER'] ?? 'redis-server';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** A plain client, for the test's own looks at what is stored. */
  readonly client: Redis;
  /** Ends the process at once (SIGKILL): what a crashed Redis looks like to its clients. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing until `resume`. */
  pause(): void;
  resume(): void;
  /**
   * Resolves once exactly `clients` connections (the test's own client included) are open: the
   * gateways connected, those of gateways closed before gone. Throws after 30 s (a loaded machine
   * may take seconds): a gateway not yet connected would count alone, and the test would mean nothing.
   */
  waitForClients(clients: number): Promise<void>;
  stop(): Promise<void>;
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
      '--enable-debug-command',
      'local',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start ${REDIS_SERVER} (apt-get install redis-server; .ci/run does): ${error.message}`))),
  );
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const until = performance.now() + 10000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${stderr}`);
      const ready = await Promise.race([
        probe
          .connect()
          .then(() => probe.ping())
          .then(
            (pong) => pong === 'PONG',
            () => false,
          ),
        spawnError,
      ]);
      if (ready) return child;
      probe.disconnect();
      if (performance.now() > until) throw new Error(`redis-server did not answer within 10 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    probe.disconnect();
  }
}

function ended(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'odg-redis-'));
  const port = await freePort();
  let child = await launch(port, dir);
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: (attempt) => Math.min(attempt * 50, 500) });
  client.on('error', () => undefined);
  const kill = async () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await ended(child);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    client,
    kill,
    async restart() {
      await kill();
      child = await launch(port, dir);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async waitForClients(clients) {
      // A gateway connects in the background (start-up never waits for Redis): until then it counts alone.
      let open = 0;
      for (const until = performance.now() + 30000; performance.now() < until; ) {
        open = String(await client.call('CLIENT', 'LIST'))
          .trim()
          .split('\n').length;
        if (open === clients) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`redis-server: ${open} connections after 30 s, ${clients} expected`);
    },
    async stop() {
      client.disconnect();
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
