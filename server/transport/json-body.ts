import { AppError } from '../core/errors.ts';

/** Keys of a JSON body that could reach an object's prototype when merged or assigned. */
const MAYBE_POISON = /__proto__|prototype|\\u/; // `\u`: a key may spell __proto__ with escapes

/**
 * Parses a request body that must be a JSON object. `__proto__` keys and `constructor.prototype`,
 * at any depth, are refused with their own message (as Fastify's `onProtoPoisoning: 'error'`): a
 * body is never merged with a key that could replace a prototype.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  let poisoned: string | null = null;
  const reviver = (key: string, value: unknown) => {
    if (key === '__proto__') poisoned ??= 'body must not contain the key __proto__';
    else if (key === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype')) {
      poisoned ??= 'body must not contain constructor.prototype';
    }
    return value;
  };
  let parsed: unknown;
  try {
    parsed = MAYBE_POISON.test(text) ? JSON.parse(text, reviver) : JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'body is not valid JSON');
  }
  if (poisoned) throw new AppError('BAD_REQUEST', poisoned);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('BAD_REQUEST', 'body must be a JSON object');
  return parsed as Record<string, unknown>;
}
