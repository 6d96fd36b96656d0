/** A whole-number option of a benchmark (`--name n`), within [min, max]; anything else stops the run with a message naming the option. */
export function whole(v: string, name: string, min: number, max: number): number {
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new Error(`--${name}: "${v}" must be a whole number from ${min} to ${max}`);
  return n;
}
