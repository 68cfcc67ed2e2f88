/**
 * API keys as Odoo stores them: format, hashing, lookup rules, expiry per version; and the RPC
 * credential checks built on them.
 */
import { pbkdf2Sync } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { ApiKeys } from '../src/security/api-keys';
import { Credentials } from '../src/security/credentials';
import { verifySecret } from '../src/security/pbkdf2-sha512';

function usersDb(): DatabaseSync {
  const db = new DatabaseSync(':memory:');
  db.exec(`CREATE TABLE res_users (id INTEGER PRIMARY KEY, login TEXT NOT NULL, active INTEGER NOT NULL);
           INSERT INTO res_users VALUES (2, 'admin', 1), (7, 'api', 1), (9, 'gone', 0);`);
  return db;
}

describe('ApiKeys', () => {
  it('generates 40 lowercase hex characters and stores only the index and a passlib hash', () => {
    const db = usersDb();
    const key = new ApiKeys(db, { version: 19 }).generateKey(7, 'gateway', new Date('2030-01-02T03:04:05Z'));
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    const row = db.prepare('SELECT * FROM res_users_apikeys').get() as Record<string, unknown>;
    expect(row).toMatchObject({ name: 'gateway', user_id: 7, scope: null, index: key.slice(0, 8), expiration_date: '2030-01-02 03:04:05' });
    expect(row['create_date']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(JSON.stringify(row)).not.toContain(key);
    // passlib's pbkdf2_sha512 text: $pbkdf2-sha512$6000$<ab64 salt>$<ab64 checksum>, recomputable independently.
    const [, scheme, rounds, salt, checksum] = String(row['key']).split('$');
    expect([scheme, rounds]).toEqual(['pbkdf2-sha512', '6000']);
    const ab64 = (text: string) => Buffer.from((text ?? '').replace(/\./g, '+'), 'base64');
    expect(pbkdf2Sync(key, ab64(salt ?? ''), 6000, 64, 'sha512').equals(ab64(checksum ?? ''))).toBe(true);
  });

  it("verifies a hash in passlib's text form made elsewhere", async () => {
    // passlib.hash.pbkdf2_sha512.using(rounds=6000, salt=b'0123456789abcdef').hash('secret')
    const salt = Buffer.from('0123456789abcdef');
    const checksum = pbkdf2Sync('secret', salt, 6000, 64, 'sha512');
    const ab64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '').replace(/\+/g, '.');
    const stored = `$pbkdf2-sha512$6000$${ab64(salt)}$${ab64(checksum)}`;
    expect(await verifySecret('secret', stored)).toBe(true);
    expect(await verifySecret('Secret', stored)).toBe(false);
    expect(await verifySecret('secret', 'not a hash')).toBe(false);
  });

  it('finds the owner by index and hash; refuses archived owners, other scopes and malformed keys', async () => {
    const db = usersDb();
    const keys = new ApiKeys(db, { version: 19 });
    const valid = keys.generateKey(7, 'a');
    const archived = keys.generateKey(9, 'b');
    const device = keys.generateKey(7, 'c', null, 'device');
    const rpc = keys.generateKey(7, 'd', null, 'rpc');
    expect(await keys.ownerOf(valid)).toEqual({ userId: 7, expiresAt: null });
    expect(await keys.ownerOf(rpc)).toEqual({ userId: 7, expiresAt: null });
    expect(await keys.ownerOf(archived)).toBeUndefined();
    expect(await keys.ownerOf(device)).toBeUndefined();
    expect(await keys.ownerOf(device, 'device')).toEqual({ userId: 7, expiresAt: null });
    expect(await keys.ownerOf(`${valid.slice(0, 8)}${'0'.repeat(32)}`)).toBeUndefined(); // same index, wrong key
    for (const bad of [valid.toUpperCase(), `${valid} `, '', 42, null]) expect(await keys.ownerOf(bad)).toBeUndefined();
  });

  it.each([
    [17, true],
    [18, false],
    [19, false],
  ] as const)('Odoo %i: an expired key works: %p', async (version, works) => {
    const db = usersDb();
    let now = new Date('2025-06-01T12:00:00Z');
    const keys = new ApiKeys(db, { version, now: () => now });
    const key = keys.generateKey(7, 'soon', new Date('2025-06-02T00:00:00Z'));
    expect(await keys.ownerOf(key)).toBeDefined();
    now = new Date('2025-06-02T00:00:01Z');
    expect((await keys.ownerOf(key)) !== undefined).toBe(works);
  });
});

describe('Credentials', () => {
  it('authenticates a login with a key of that same user only', async () => {
    const db = usersDb();
    const keys = new ApiKeys(db, { version: 19 });
    const api = keys.generateKey(7, 'api');
    const admin = keys.generateKey(2, 'admin');
    const credentials = new Credentials(db, keys);
    expect(await credentials.authenticate('api', api)).toBe(7);
    expect(await credentials.authenticate('api', admin)).toBe(false);
    expect(await credentials.authenticate('API', api)).toBe(false);
    expect(await credentials.authenticate('gone', api)).toBe(false);
    expect(await credentials.authenticate('api', '')).toBe(false);
    expect(await credentials.authenticate(7, api)).toBe(false);
    expect(await credentials.checkUid(7, api)).toBe(true);
    expect(await credentials.checkUid(2, api)).toBe(false);
    expect(await credentials.bearerUser(admin)).toBe(2);
  });

  it('remembers a success no longer than the key lives', async () => {
    const db = usersDb();
    let now = new Date('2025-06-01T12:00:00Z');
    const clock = () => now;
    const keys = new ApiKeys(db, { version: 18, now: clock });
    const key = keys.generateKey(7, 'soon', new Date('2025-06-01T12:00:30Z'));
    const credentials = new Credentials(db, keys, clock);
    expect(await credentials.checkUid(7, key)).toBe(true);
    now = new Date('2025-06-01T12:00:20Z');
    expect(await credentials.checkUid(7, key)).toBe(true);
    now = new Date('2025-06-01T12:00:31Z');
    expect(await credentials.checkUid(7, key)).toBe(false);
  });
});
