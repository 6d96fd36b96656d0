import { z } from 'zod';

/**
 * The one rule for free text in an input: a string PostgreSQL can store as `text` and inside
 * `jsonb` (events, audit rows). A NUL character or a lone UTF-16 surrogate (JSON allows "\ud800")
 * would otherwise reach the database and fail there as a 500; here they are a 400 that names the
 * field. Every free-text string of every input schema is built from `plain`, `text` or `trimmed`;
 * strings held to a pattern (ids, callsigns, codes) or an enum cannot carry either and need neither.
 */

/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Any string the database can store (no NUL, no lone surrogate); `typeError` replaces
 * "<what> must be a string" for fields that also take null or another type.
 */
export const plain = (what: string, typeError = `${what} must be a string`) => z.string({ error: typeError })
  .refine((s) => !s.includes('\u0000'), `${what} must not contain NUL characters`)
  .refine((s) => !LONE_SURROGATE.test(s), `${what} must be valid Unicode (a lone surrogate was sent)`);

const notBlank = (s: string) => s.length === 0 || s.trim().length > 0; // empty has its own message

/** Free text of 1..max characters with something other than white space (kept as sent). */
export const text = (max: number, what: string) => plain(what)
  .min(1, `${what} must not be empty`).max(max, `${what} has at most ${max} characters`).refine(notBlank, `${what} must not be blank`);

/**
 * Free text of 1..max characters, trimmed first (names): white space at either end is dropped.
 * `emptyHint` follows "<what> must not be empty" (e.g. " (send null for none)").
 */
export const trimmed = (max: number, what: string, typeError?: string, emptyHint = '') => plain(what, typeError).trim()
  .min(1, `${what} must not be empty${emptyHint}`).max(max, `${what} has at most ${max} characters`);
