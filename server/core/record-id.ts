import { z } from 'zod';

/** The longest id taken: 15 digits, so a client that still sends a number sends it exactly. */
const MAX_DIGITS = 15;

/**
 * A database id (bigserial) as the spec has ids: a string of digits as the server answers it, e.g.
 * "7". A whole number is taken too, as badges take 7 and "07": clients written when these ids were
 * numbers keep working. Always the canonical string inside, so it compares and keys as the stored id does.
 */
export function recordId(what: string) {
  const message = `${what} must be a string of digits from "1" without leading zeros (an id, e.g. "7")`;
  const digits = z.string({ error: message }).regex(new RegExp(`^[1-9][0-9]{0,${MAX_DIGITS - 1}}$`), message);
  const number = z.number({ error: message }).int(message).min(1, message).max(10 ** MAX_DIGITS - 1, `${what} is too large`).transform(String);
  return z.union([digits, number], { error: message });
}

/** An id as answered: a string of digits. */
export const RecordIdOut = z.string().regex(/^[1-9][0-9]*$/);
