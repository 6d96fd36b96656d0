/**
 * Call triage (server/domains/calls/README.md): the reasons a dispatcher dismisses a game call for,
 * and the bounds of the triage routes. Shared by the server, the board and the SDK.
 */

/** The preset reasons, in the board's order. Any other text (1..dismissReason characters) is a reason too. */
export const dismissPresets = ['Fehlalarm', 'Doppelt', 'Erledigt'] as const;
export type DismissPreset = (typeof dismissPresets)[number];

export const callTriageLimits = {
  /** Characters of a dismissal reason. */
  dismissReason: 200,
  /** Calls taken together into one sheet (`POST /calls/merge`). */
  mergeCalls: 20,
  /**
   * For this long after a dismissal, a report of the same externalId is refused (409 call_dismissed)
   * instead of opening a new call; afterwards it opens a new call, as after a resolve.
   */
  dismissHoldMs: 15 * 60_000,
} as const;

/** The preset a reason names (any case, surrounding space ignored), or null for the dispatcher's own words. */
export function dismissPresetOf(reason: string): DismissPreset | null {
  const r = reason.trim().toLowerCase();
  return dismissPresets.find((p) => p.toLowerCase() === r) ?? null;
}
