import type { Capability } from '../../../../contract/capabilities.ts';
import type { ModuleName } from '../../../../contract/modules.ts';

/**
 * What one onboarding template puts into each setup area of an empty guild. Everything here is
 * plain data checked by test/onboarding/templates.test.ts against the rules the other routes
 * enforce (callsign pattern, status code and colour, known capabilities, unique names, AAO types and keywords).
 */
export interface Template {
  id: string;
  title: { de: string; en: string };
  ranks: { id: string; name: string; position: number; capabilities: readonly Capability[] }[];
  statuses: { code: string; label: string; color: string; alarm: boolean; acknowledges?: boolean; available?: boolean; position: number }[];
  /** The AAO: unit types, then keywords with the types (and counts) they send; units name their type. */
  unitTypes: { code: string; label: string }[];
  keywords: { keyword: string; priority: 1 | 2 | 3; requirements: { type: string; count: number }[] }[];
  units: { callsign: string; label: string; orgUnit: string; type: string }[];
  letterheads: {
    name: string; organisation: string; addressLines: string[]; primaryColor: string; secondaryColor: string; footer: string;
  }[];
  /** Every module's switch: stored in full, so the guild's modules no longer count as "never changed". */
  modules: Record<ModuleName, boolean>;
  clock: { timeZone: string; maxShiftMs: number; minOnDuty: number };
}

const HOUR = 3_600_000;
export const twelveHours = 12 * HOUR;
