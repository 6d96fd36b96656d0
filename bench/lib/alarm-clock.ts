/**
 * The one clock of `bench alarm`: wall-clock milliseconds with sub-millisecond steps
 * (`performance.timeOrigin + performance.now()`), read the same way in the bench, its children
 * and the pages (PAGE_CLOCK), so a time taken in one process compares with one taken in another.
 */
export const clock = (): number => performance.timeOrigin + performance.now();

/** The same clock as page script. */
export const PAGE_CLOCK = 'performance.timeOrigin + performance.now()';
