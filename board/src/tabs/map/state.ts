import { signal } from '@preact/signals';

/** What the details panel shows: a unit (callsign), a call (external id) or an incident (number). */
export type Selection = { kind: 'unit'; id: string } | { kind: 'call'; id: string } | { kind: 'incident'; id: number };

/** Per shown map (the tab, the panel beside the calls, a picker): its selection and the unit it follows. */
export interface MapState {
  selected: ReturnType<typeof signal<Selection | null>>;
  following: ReturnType<typeof signal<string | null>>;
  searchMiss: ReturnType<typeof signal<string | null>>;
}

export function mapState(): MapState {
  return { selected: signal<Selection | null>(null), following: signal<string | null>(null), searchMiss: signal<string | null>(null) };
}
