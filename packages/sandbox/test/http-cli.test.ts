/**
 * The sandbox CLI's key commands and argument errors, run in-process (`serve` is exercised through
 * `startSandbox` by the end-to-end suites).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli';
import { ApiKeys } from '../src/security/api-keys';
import { openDatabase } from '../src/store/database';

let dir: string;
let dbPath: string;
let out: string[];
let err: string[];

async function run(...argv: string[]): Promise<number> {
  out = [];
  err = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  const error = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
  try {
    return await main(argv);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  dbPath = join(dir, 'nested', 'demo.db');
  expect(await run('init', '--db', dbPath, '--seed', '3', '--scale', 'fleet.vehicle=200')).toBe(0);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sandbox CLI', () => {
  it('init reports the database it made', () => {
    expect(out.join('\n')).toContain(`${dbPath} ready (seed 3,`);
  });

  it('key prints a new key alone on the last line, and stores it with its expiry', async () => {
    expect(await run('key', '--db', dbPath, '--login', 'gateway-api', '--name', 'ci', '--expires', '2031-02-03')).toBe(0);
    const key = out[out.length - 1] ?? '';
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    const db = openDatabase(dbPath);
    try {
      expect(await new ApiKeys(db, { version: 19 }).ownerOf(key)).toEqual({ userId: expect.any(Number), expiresAt: '2031-02-03 00:00:00' });
    } finally {
      db.close();
    }
  });

  it('demo-keys prints one JSON line with the demo users and their keys', async () => {
    expect(await run('demo-keys', '--json', '--db', dbPath)).toBe(0);
    const demo = JSON.parse(out[out.length - 1] ?? '') as Record<string, unknown>;
    expect(demo).toEqual({
      db: 'sandbox',
      logins: { api: 'gateway-api', admin: 'admin', no_read: 'gateway-noread' },
      valid: expect.stringMatching(/^[0-9a-f]{40}$/),
      forbidden: expect.stringMatching(/^[0-9a-f]{40}$/),
      expired: expect.stringMatching(/^[0-9a-f]{40}$/),
      no_read: { key: expect.stringMatching(/^[0-9a-f]{40}$/), resource: 'fleet/vehicles' },
    });
  });

  it.each([
    [['frobnicate'], 'unknown command'],
    [['key', '--db', 'x'], 'key needs --login'],
    [['key', '--login', 'nobody@example.test', '--db', 'PLACEHOLDER'], 'no active user with login'],
    [['key', '--login', 'admin', '--expires', 'soon', '--db', 'PLACEHOLDER'], '--expires takes YYYY-MM-DD'],
    [['serve', '--odoo-version', '16', '--db', 'PLACEHOLDER'], '--odoo-version takes 17, 18 or 19'],
    [['serve', '--bogus'], "Unknown option '--bogus'"],
    [['demo-keys', '--db', 'PLACEHOLDER'], 'pass --json'],
    [['init', '--db', 'PLACEHOLDER2', '--scale', 'fleet.vehicle'], '--scale takes MODEL=ROWS'],
    [['key', '--login', 'admin', '--db', '/nonexistent/demo.db'], 'no database at /nonexistent/demo.db'],
  ])('refuses %j with exit status 2 and the usage', async (argv, message) => {
    const args = argv.map((a) => (a === 'PLACEHOLDER' ? dbPath : a === 'PLACEHOLDER2' ? join(dir, 'other.db') : a));
    expect(await run(...args)).toBe(2);
    expect(err.join('\n')).toContain(message);
    expect(err.join('\n')).toContain('usage: npm run sandbox');
  });
});
