/**
 * @module `startSandbox`: opens an initialised sandbox database with the real ORM and serves it
 * over HTTP. The CLI's `serve`, the end-to-end tests and the gateway's `make run` start it here.
 */
import type { RegistryDrift } from '../orm/registry-drift';
import type { OdooVersion } from '../orm/types';
import { openOrm } from '../seed/init';
import { createSandboxServer, listen } from './server';

export const DEFAULT_DATABASE_NAME = 'sandbox';

export interface StartSandboxOptions {
  /** SQLite file made by `initDatabase` (`npm run sandbox -- init`). */
  readonly dbPath: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Odoo version to imitate (default 19). */
  readonly version?: OdooVersion;
  /** Database name clients pass as `db` (default "sandbox"). */
  readonly database?: string;
  /** Clock for key expiry and the ORM's computed dates (tests freeze or move it). */
  readonly now?: () => Date;
  /** Request body cap in bytes (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /** Serve models and fields unlike the model files, to test the gateway's catalogue drift check. */
  readonly drift?: RegistryDrift;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly database: string;
  readonly version: OdooVersion;
  /** Stops listening, drops idle connections and closes the database. */
  close(): Promise<void>;
}

export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const handle = openOrm({
    path: options.dbPath,
    version: options.version ?? 19,
    ...(options.now ? { now: options.now } : {}),
    ...(options.drift ? { drift: options.drift } : {}),
  });
  const database = options.database ?? DEFAULT_DATABASE_NAME;
  try {
    const server = createSandboxServer({
      orm: handle.orm,
      db: handle.db,
      database,
      ...(options.now ? { now: options.now } : {}),
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    });
    const listening = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
    return {
      url: listening.url,
      port: listening.port,
      database,
      version: handle.version,
      close: async () => {
        await listening.close();
        handle.close();
      },
    };
  } catch (error) {
    handle.close();
    throw error;
  }
}
