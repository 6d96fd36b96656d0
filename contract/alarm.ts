/** The open sheet a crew's unit was last alarmed for, as the crew sees it (GET /me/alarm `incident`). */
export interface CrewIncident {
  number: number;
  keyword: string;
  priority: number;
  location: string | { x?: number; y?: number; street?: string; postal?: string; text?: string } | null;
  message: string | null;
  alarmedAt: Date;
  acknowledgedAt: Date | null;
  units: { callsign: string; label: string; alarmedAt: Date; acknowledgedAt: Date | null }[];
  entries: { kind: string; text: string; at: Date; by: string | null }[];
}

/** What `me.alarm.watch` sends the crew: on duty, the units alarmed now, the unit it occupies and its status, its incident. */
export interface AlarmState {
  onDuty: boolean; alarms: string[]; unit: string | null; incident: CrewIncident | null;
  /** The status code the own unit is in (what its crew's status buttons show as current); absent without a unit. */
  unitStatus?: string;
}
