/**
 * @module The hash Odoo keeps for API keys: passlib's `pbkdf2_sha512` with 6000 rounds
 * (`KEY_CRYPT_CONTEXT` in res_users.py), in passlib's own text form
 * `$pbkdf2-sha512$6000$<salt>$<checksum>` (adapted base64: `.` for `+`, no padding). A database
 * written here verifies with passlib and the other way round.
 */
import { pbkdf2, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

const KEY_HASH_ROUNDS = 6000;
const SALT_BYTES = 16; // passlib's default for pbkdf2_sha512
const CHECKSUM_BYTES = 64;
const HASH_FORMAT = /^\$pbkdf2-sha512\$(\d+)\$([A-Za-z0-9./]*)\$([A-Za-z0-9./]+)$/;

/** Hashes a secret with a fresh salt (synchronous: key generation is rare and interactive). */
export function hashSecret(secret: string): string {
  const salt = randomBytes(SALT_BYTES);
  const checksum = pbkdf2Sync(secret, salt, KEY_HASH_ROUNDS, CHECKSUM_BYTES, 'sha512');
  return `$pbkdf2-sha512$${KEY_HASH_ROUNDS}$${toAb64(salt)}$${toAb64(checksum)}`;
}

/** Verifies a secret against a stored hash in constant time; a malformed hash never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const m = HASH_FORMAT.exec(stored);
  if (!m) return false;
  const rounds = Number(m[1]);
  const salt = fromAb64(m[2] ?? '');
  const expected = fromAb64(m[3] ?? '');
  if (rounds < 1 || rounds > 10_000_000 || expected.length === 0) return false;
  const actual = await pbkdf2Async(secret, salt, rounds, expected.length, 'sha512');
  return timingSafeEqual(actual, expected);
}

function toAb64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '').replace(/\+/g, '.');
}

function fromAb64(text: string): Buffer {
  return Buffer.from(text.replace(/\./g, '+'), 'base64');
}
