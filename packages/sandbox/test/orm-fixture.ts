/**
 * Test support for the ORM suites: a sandbox database seeded from the real model files in a
 * temporary directory, opened once per version, and a `call` helper that goes through the
 * `Orm` seam the transports use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initDatabase, openOrm, type SandboxHandle } from '../src/seed/init';
import { SEEDED_USERS } from '../src/seed/security';
import { OdooException, type OdooVersion } from '../src/orm/types';

export const ADMIN_UID = SEEDED_USERS.find((u) => u.login === 'admin')!.id;
export const GATEWAY_UID = SEEDED_USERS.find((u) => u.login === 'gateway-api')!.id;
export const NO_FLEET_UID = SEEDED_USERS.find((u) => u.login === 'gateway-noread')!.id;

/** The request clock of every test: 2026-01-15 10:00:00 UTC. */
const NOW = new Date('2026-01-15T10:00:00Z');

interface CallOptions {
  readonly uid?: number;
  readonly ids?: readonly number[];
  readonly context?: Record<string, unknown>;
}

export interface Sandbox {
  readonly handle: SandboxHandle;
  call(model: string, method: string, positional?: readonly unknown[], named?: Record<string, unknown>, options?: CallOptions): unknown;
  /** The exception a call raises (fails the test when it does not raise). */
  error(model: string, method: string, positional?: readonly unknown[], named?: Record<string, unknown>, options?: CallOptions): OdooException;
  /** Direct SQL on the store, for preparing edge rows and checking results independently. */
  sql<T = Record<string, unknown>>(text: string, ...params: (string | number | null)[]): T[];
  close(): void;
}

export interface SandboxSet {
  readonly path: string;
  open(version: OdooVersion): Sandbox;
  cleanup(): void;
}

/** Creates a seeded database (optionally prepared by `setup`) shared by the versions of a suite. */
export function createSandboxSet(setup?: (sql: (text: string, ...params: (string | number | null)[]) => void) => void): SandboxSet {
  const dir = mkdtempSync(join(tmpdir(), 'orm-test-'));
  const path = join(dir, 'sandbox.db');
  initDatabase({ path, seed: 1 });
  const opened: Sandbox[] = [];
  if (setup) {
    const handle = openOrm({ path });
    setup((text, ...params) => void handle.db.prepare(text).run(...params));
    handle.close();
  }
  return {
    path,
    open(version) {
      const sandbox = openSandbox(path, version);
      opened.push(sandbox);
      return sandbox;
    },
    cleanup() {
      for (const sandbox of opened) sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function openSandbox(path: string, version: OdooVersion): Sandbox {
  const handle = openOrm({ path, version, now: () => NOW });
  let closed = false;
  const call: Sandbox['call'] = (model, method, positional = [], named = {}, options = {}) => {
    const spec = handle.orm.lookupMethod(model, method);
    if (spec === undefined) throw new Error(`no method ${model}.${method}`);
    if (spec === 'private') throw new Error(`private method ${model}.${method}`);
    const env = { uid: options.uid ?? ADMIN_UID, context: options.context ?? {} };
    return handle.orm.call(env, model, spec, spec.decorator === 'records' ? (options.ids ?? []) : null, positional, named);
  };
  return {
    handle,
    call,
    error(model, method, positional, named, options) {
      try {
        call(model, method, positional, named, options);
      } catch (error) {
        if (error instanceof OdooException) return error;
        throw error;
      }
      throw new Error(`${model}.${method} did not raise`);
    },
    sql: <T>(text: string, ...params: (string | number | null)[]) => handle.db.prepare(text).all(...params) as T[],
    close() {
      if (!closed) handle.close();
      closed = true;
    },
  };
}

/** `display_name` of each id, read as the administrator. */
export function displayNames(box: Sandbox, model: string, ids: number[]): unknown[] {
  return (box.call(model, 'read', [['display_name']], {}, { ids }) as { display_name: unknown }[]).map((r) => r.display_name);
}

/** Ids matching `domain`, archived records included, by id. */
export function searchIds(box: Sandbox, model: string, domain: unknown[]): number[] {
  return box.call(model, 'search', [domain], { order: 'id' }, { context: { active_test: false } }) as number[];
}
