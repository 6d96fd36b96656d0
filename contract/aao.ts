/**
 * Alarm- und Ausrückeordnung (AAO): the sizes the server's schemas enforce and the board's editor
 * mirrors. A keyword sends at most `alarmUnits` units in all (the alarm route's limit), so one click
 * can alarm a whole proposal.
 */
export const aaoLimits = {
  /** Unit types per guild, a type code's and a type label's length. */
  types: 50, typeCode: 16, typeLabel: 60,
  /** Keywords per guild, requirement rows per keyword, units per row and per keyword. */
  keywords: 300, requirements: 10, count: 20, unitsPerKeyword: 20,
} as const;

/**
 * The one rule for matching a sheet's keyword to the catalogue (server and board agree on it):
 * compared in lower case with white space collapsed; an exact match wins, else the longest
 * catalogue keyword the sheet's keyword starts with, followed by a character that is no letter
 * or digit ("B 2 Wohnung" matches "B 2 Wohnung – Küche", "RD 1" does not match "RD 12").
 */
export function normalKeyword(keyword: string): string {
  return keyword.replace(/\s+/g, ' ').trim().toLocaleLowerCase('de');
}

export function matchKeyword<K extends { keyword: string }>(sheetKeyword: string, catalogue: readonly K[]): K | null {
  const sheet = normalKeyword(sheetKeyword);
  let best: K | null = null;
  let bestLength = -1;
  for (const k of catalogue) {
    const key = normalKeyword(k.keyword);
    if (!key) continue;
    if (key === sheet) return k;
    if (key.length > bestLength && sheet.startsWith(key) && !/[\p{L}\p{N}]/u.test(sheet.charAt(key.length))) {
      best = k;
      bestLength = key.length;
    }
  }
  return best;
}
