import type { Out } from '../../app/types.ts';

/**
 * The patient files as `GET /medic/patients` and `GET /medic/patients/{fileId}` answer them (ids
 * strings, every time ISO 8601 UTC), straight from the router; a `medic` notice carries the same summary.
 */
export type Summary = Out['medic']['patients']['patients'][number];
export type Detail = Out['medic']['patient'];
export type Status = Summary['status'];
export type Filter = Status | 'all';
export type CitizenState = NonNullable<Summary['state']>;
export type VitalSeries = Detail['vitals'];
export type Vitals = VitalSeries['points'][number];
export type Injury = Detail['injuries'][number];
export type Ecg = Detail['ecg'][number];
export type Image = Detail['images'][number];

/** An answer's ISO time as epoch ms, for formatting, ordering and drawing. */
export const ms = (iso: string) => Date.parse(iso);

/** Injuries not healed (what the list's row counts). */
export const openInjuries = (d: Detail) => d.injuries.filter((i) => i.state !== 'healed').length;

/** The row a file read gives the list. */
export function summaryOf(d: Detail): Summary {
  return {
    fileId: d.fileId, citizenId: d.citizenId, name: d.name, status: d.status, outcome: d.outcome, openedAt: d.openedAt,
    closedAt: d.closedAt, lastEventAt: d.lastEventAt, state: d.state, injuries: openInjuries(d), lastVitals: d.lastVitals,
  };
}
