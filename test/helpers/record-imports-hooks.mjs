// Loader hooks of record-imports.mjs (they run in the loader's own thread).
import { appendFileSync } from 'node:fs';

const out = process.env.DT_RECORD_IMPORTS;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (out) appendFileSync(out, `${resolved.url}\n`);
  return resolved;
}
