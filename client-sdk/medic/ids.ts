import { randomBytes } from 'node:crypto';

/** Characters the server accepts in event and citizen ids (1..64 of them). */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Event ids for a game that has none of its own: `<prefix>-<start time>-<counter>` (base 36), where the
 * start time carries two random bytes, so two starts in the same millisecond (or a clock set back)
 * still differ. Unique across restarts; at most 64 characters.
 */
export function createIdMaker(prefix: string): () => string {
  const clean = prefix.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 24) || 'dt';
  const start = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  let n = 0;
  return () => `${clean}-${start}-${(n++).toString(36)}`;
}
