import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomBase62, toBase62 } from '../core/ids.ts';

/**
 * Key format: `stmp_` (unscoped) or `stmp_sc_` (scoped), then 30 random base62 chars (~178 bits)
 * and a 6-char base62 CRC32 of those 30. The checksum rejects typos and random strings before
 * any database look-up. An unscoped body never starts with `sc_`, so the prefix alone tells the kind.
 */
const BODY = 30;
const CHECK = 6;
const pattern = /^stmp_(sc_)?([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

export function generateApiKey(scoped: boolean): string {
  const body = randomBase62(BODY);
  return `${scoped ? 'stmp_sc_' : 'stmp_'}${body}${checksum(body)}`;
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECK);
}

/** True when `key` has the right shape and checksum; says nothing about whether it exists. */
export function isWellFormedApiKey(key: string): boolean {
  const m = pattern.exec(key);
  return m !== null && checksum(m[2]) === m[3];
}

/** SHA-256 of a key or token, as stored. One-shot `crypto.hash`: every authenticated request hashes its credential. */
export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}
