import { signal } from '@preact/signals';

/**
 * The time running durations are shown against, ticking once a second: one timer for the whole
 * board, and only the labels that read it re-render.
 */
export const now = signal(Date.now());
setInterval(() => {
  now.value = Date.now();
}, 1000);
