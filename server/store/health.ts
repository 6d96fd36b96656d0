/**
 * Whether PostgreSQL answers, as this process last saw it. Readiness (`GET /ready`) and the live
 * boards' degraded signal read it; the database layer sets it when queries fail for want of a
 * connection and when they succeed again.
 */
export interface DatabaseHealth {
  readonly up: boolean;
  /** `listener` is called with the new state on every change; the function returned unsubscribes. */
  onChange(listener: (up: boolean) => void): () => void;
  /** Records what was seen; listeners hear only changes. */
  set(up: boolean): void;
}

export function createDatabaseHealth(): DatabaseHealth {
  const listeners = new Set<(up: boolean) => void>();
  let up = true;
  return {
    get up() {
      return up;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (next === up) return;
      up = next;
      for (const listener of listeners) listener(up);
    },
  };
}
