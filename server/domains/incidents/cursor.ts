/**
 * The incident list's page cursor: the number of the last sheet of a page, so the next page starts
 * below it (keyset paging on the guild's sheet numbers, newest first). Sheets added meanwhile have
 * higher numbers and never shift a page: no gaps, no duplicates. Opaque to clients (`i1.` and the
 * number in base64url): a cursor that does not decode is a 400.
 */
const PREFIX = 'i1.';
const MAX_INT = 2_147_483_647;

export function encodeCursor(number: number): string {
  return Buffer.from(`${PREFIX}${number}`, 'utf8').toString('base64url');
}

/** The sheet number a cursor stands for, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^i1\.([1-9][0-9]{0,9})$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n <= MAX_INT ? n : null;
}
