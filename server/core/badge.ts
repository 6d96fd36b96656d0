import { z } from 'zod';

/** Badge numbers: `1`, `"1"` and `"01"` are one badge; stored and answered with at least two digits. */
export function normalizeBadge(badge: number | string): string {
  return String(Number(badge)).padStart(2, '0');
}

export const Badge = z
  .union([
    z.number().int('badge must be a whole number').min(0, 'badge must not be negative').max(999999, 'badge has at most 6 digits'),
    z.string().regex(/^\d{1,6}$/, 'badge must be 1 to 6 digits'),
  ], { error: 'badge must be a whole number or a string of digits' })
  .transform(normalizeBadge);
