/**
 * Ages of positions as boards saw them, in a histogram of 1 ms bins (0 to 30 s, and one bin for
 * older): cheap to count in the load generator and to merge across processes.
 */
export const AGE_BINS = 30_001;

export function newAges(): number[] {
  return new Array<number>(AGE_BINS).fill(0);
}

export function countAge(ages: number[], ms: number): void {
  ages[Math.max(0, Math.min(AGE_BINS - 1, Math.round(ms)))]++;
}

export function mergeAges(into: number[], from: readonly number[]): void {
  for (let i = 0; i < AGE_BINS; i++) into[i] += from[i];
}

export function ageCount(ages: readonly number[]): number {
  let n = 0;
  for (const c of ages) n += c;
  return n;
}

/** The q-quantile (0..1) in ms; NaN when nothing was counted. */
export function agePercentile(ages: readonly number[], q: number): number {
  const n = ageCount(ages);
  if (!n) return NaN;
  const rank = Math.ceil(q * n);
  let seen = 0;
  for (let i = 0; i < AGE_BINS; i++) {
    seen += ages[i];
    if (seen >= rank) return i;
  }
  return AGE_BINS - 1;
}

/** Histograms travel over IPC as [bin, count] pairs of the bins that are not empty. */
export function packAges(ages: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  ages.forEach((c, i) => c && out.push([i, c]));
  return out;
}

export function unpackAges(pairs: readonly [number, number][]): number[] {
  const ages = newAges();
  for (const [i, c] of pairs) ages[i] += c;
  return ages;
}
