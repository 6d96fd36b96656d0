/** Where something happened, as calls and sheets carry it: text, or `{x, y, street, postal, text}`. */
export type Place = string | { x?: number; y?: number; street?: string; postal?: string; text?: string } | null;

const coord = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The address part: text, street and postal, as one line ("" when there is none). */
export function placeText(p: Place): string {
  if (!p) return '';
  if (typeof p === 'string') return p;
  const street = [p.street, p.postal].filter(Boolean).join(', ');
  return [p.text, street].filter(Boolean).join(' · ');
}

/** Game coordinates "X 123 · Y −45.5", or "" when there are none. */
export function placeCoords(p: Place): string {
  if (!p || typeof p === 'string' || p.x === undefined || p.y === undefined) return '';
  return `X ${coord(p.x)} · Y ${coord(p.y)}`;
}

/** The fields of a location form, all as typed. */
export interface PlaceDraft { text: string; street: string; postal: string; x: string; y: string }

export function draftOf(p: Place): PlaceDraft {
  if (!p) return { text: '', street: '', postal: '', x: '', y: '' };
  if (typeof p === 'string') return { text: p, street: '', postal: '', x: '', y: '' };
  return { text: p.text ?? '', street: p.street ?? '', postal: p.postal ?? '', x: p.x === undefined ? '' : String(p.x), y: p.y === undefined ? '' : String(p.y) };
}

/**
 * The location to send for a form: null when empty, plain text when only text is given, else the
 * object. Coordinates accept a decimal comma; 'badCoords' when one is not a number.
 */
export function placeOf(d: PlaceDraft): Place | 'badCoords' {
  const num = (s: string) => (s.trim() === '' ? undefined : Number(s.trim().replace(',', '.')));
  const x = num(d.x);
  const y = num(d.y);
  if ((x !== undefined && !Number.isFinite(x)) || (y !== undefined && !Number.isFinite(y))) return 'badCoords';
  const text = d.text.trim(), street = d.street.trim(), postal = d.postal.trim();
  if (!street && !postal && x === undefined && y === undefined) return text || null;
  return {
    ...(text ? { text } : {}), ...(street ? { street } : {}), ...(postal ? { postal } : {}),
    ...(x !== undefined ? { x } : {}), ...(y !== undefined ? { y } : {}),
  };
}

/** Two locations are the same (key order aside). */
export function samePlace(a: Place, b: Place): boolean {
  const norm = (p: Place) => (p && typeof p === 'object' ? JSON.stringify(Object.keys(p).sort().map((k) => [k, (p as Record<string, unknown>)[k]])) : JSON.stringify(p ?? null));
  return norm(a) === norm(b);
}
