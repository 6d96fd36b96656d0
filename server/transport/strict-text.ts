import { AppError } from '../core/errors.ts';
import { clip } from '../trpc/errors.ts';

/*
 * Text that arrives as bytes (bodies) or percent-escapes (query strings) is decoded strictly: what
 * is not UTF-8 is a 400 naming where it is, never text silently changed to U+FFFD. A byte order
 * mark before a body is refused too (RFC 8259 §8.1: senders must not add one; naming it is clearer
 * than "not valid JSON"). A lone surrogate escaped in JSON ("\ud800") is valid UTF-8 on the wire:
 * the input schemas' text rule (core/text.ts) refuses it per field, so a batch item carrying it
 * is that item's rejection, not the whole request's.
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as text; a 400 naming `what` ("body") and the first offending byte when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array, what: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new AppError('BAD_REQUEST', `${what} starts with a byte order mark (EF BB BF); send UTF-8 without one`);
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const at = firstNonUtf8(bytes);
    const seen = [...bytes.subarray(at, at + 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
    throw new AppError('BAD_REQUEST', `${what} is not valid UTF-8: the bytes at offset ${at} (${seen}) are not a UTF-8 character; send text as UTF-8`);
  }
}

/**
 * Offset of the first byte sequence of `bytes` that is not a UTF-8 character (RFC 3629 §4: no
 * overlong forms, no surrogates, nothing above U+10FFFF, none cut short); -1 when there is none.
 */
export function firstNonUtf8(bytes: Uint8Array): number {
  const cont = (i: number, lo = 0x80, hi = 0xbf) => i < bytes.length && bytes[i] >= lo && bytes[i] <= hi;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) { i++; continue; }
    // Each case: the lead byte, the range its first continuation byte may take, how many follow.
    const [lo, hi, n] = b >= 0xc2 && b <= 0xdf ? [0x80, 0xbf, 1]
      : b === 0xe0 ? [0xa0, 0xbf, 2] : b === 0xed ? [0x80, 0x9f, 2] : b >= 0xe1 && b <= 0xef ? [0x80, 0xbf, 2]
      : b === 0xf0 ? [0x90, 0xbf, 3] : b === 0xf4 ? [0x80, 0x8f, 3] : b >= 0xf1 && b <= 0xf3 ? [0x80, 0xbf, 3]
      : [0, 0, -1];
    if (n < 0 || !cont(i + 1, lo, hi)) return i;
    for (let k = 2; k <= n; k++) if (!cont(i + k)) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * The query's name/value pairs, decoded as URLSearchParams does ('+' is a space) but strictly: a
 * value that is not UTF-8 (a lone surrogate's bytes, a stray %FF) is a 400 naming the parameter,
 * not text silently changed to U+FFFD.
 */
export function queryPairs(query: string): [string, string][] {
  const decode = (s: string, name: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new AppError('BAD_REQUEST', `${name} must be valid Unicode (the query holds bytes that are not UTF-8, e.g. a lone surrogate)`);
    }
  };
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq), 'a query parameter name');
    pairs.push([name, eq < 0 ? '' : decode(part.slice(eq + 1), clip(name, 40))]);
  }
  return pairs;
}
