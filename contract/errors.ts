/**
 * Why a request failed, for machines: every error answer carries a stable `reason` next to its
 * human `error` message (REST body `{ "error", "reason", "params"? }`, tRPC error `data.reason` and
 * `data.params`). Clients branch and translate on the reason, never on the English wording; a
 * reason, once published, keeps its name and meaning. `params` holds the variable parts of the
 * message (all strings), for reasons that have some.
 */

/** The specific reasons, each with the parameters its `params` carries. */
export interface SpecificReasons {
  /** `person` is not clocked in; without `person`, the caller is not. */
  not_clocked_in: { person?: string };
  /** `person` is clocked in already. */
  already_clocked_in: { person: string };
  /** The caller's person is off duty and cannot take a game call. */
  off_duty: Record<never, never>;
  /** The caller does not occupy `unit`. */
  not_your_unit: { unit: string };
  /** `person` is not in `unit`; without `person`, the caller is in no unit. */
  not_in_unit: { person?: string; unit?: string };
  /** `person` (absent: the caller) is not on stand-by. */
  not_on_standby: { person?: string };
  /** The caller holds no dispatcher slot. */
  no_dispatcher_slot: Record<never, never>;
  /** Dispatcher slot `slot` is held by `person`. */
  slot_taken: { slot: string; person: string };
  /** All `slots` dispatcher slots are held. */
  all_slots_taken: { slots: string };
  /** Game call `call` was taken already (for incident sheet `sheet`, when one was opened). */
  call_taken: { call: string; sheet?: string };
  /** Game call `call` was dismissed by a dispatcher for `dismissReason`; reports of its externalId are refused `until` (ISO time). */
  call_dismissed: { call: string; dismissReason: string; until?: string };
  /** Game call `call` was resolved by the game. */
  call_resolved: { call: string };
  /** Incident sheet `sheet` is closed. */
  incident_closed: { sheet: string };
  /** The `units` (comma-separated callsigns) are on the other open incident `sheets` (comma-separated numbers); alarm again with force: true to move them. */
  unit_on_other_incident: { units: string; sheets: string };
  /** The status catalogue has no status with alarm: true besides FMS 0, so a dispatcher's alarm has no status to put units in. */
  no_alarm_status: Record<never, never>;
  /** `unit` has members: they must leave before it is deleted. */
  unit_occupied: { unit: string };
  /** Unit status `status` is in use by the `units` (comma-separated callsigns). */
  status_in_use: { status: string; units: string };
  /** Unit type `type` is in use by the `units` (comma-separated callsigns) and/or the AAO `keywords` (comma-separated). */
  unit_type_in_use: { type: string; units?: string; keywords?: string };
  /** The unit `types` (comma-separated) are not in the guild's type catalogue (GET /admin/unit-types). */
  unknown_unit_type: { types: string };
  /** The caller's rank lacks `capability`. */
  capability_missing: { capability: string };
  /** The API key lacks every scope of `scopes` (separated by " or "); without `scopes`, the route takes no scoped keys. */
  scope_missing: { scopes?: string };
  /** An API key on a route that needs a signed-in session. */
  session_only: Record<never, never>;
  /** An alarm session (dispatch-terminal alarm) on a route other than the alarm watch. */
  alarm_session_only: Record<never, never>;
  /** Admin rights are needed. */
  admin_required: Record<never, never>;
  /** Feature module `module` is switched off for this guild (a live subscription names every one it needs, comma-separated). */
  module_off: { module: string };
  /** A session write sent from another site. */
  csrf: Record<never, never>;
  /** No API key and no session cookie with x-guild-id. */
  missing_credential: Record<never, never>;
  /** A record named `name` exists already (letterheads, AAO keywords). */
  name_taken: { name: string };
  /** The version sent is not the stored one: read the record again and reapply the change. */
  stale_version: Record<never, never>;
  /** A map calibration the server cannot use: `problem` `spread` (the points do not differ in `axes`, comma-separated of px, py, x, y), `outside` (point `point` lies off the image) or `no_image`. */
  map_calibration_invalid: { problem: 'spread' | 'outside' | 'no_image'; axes?: string; point?: string };
  /** The map image `upload` is no upload of this guild. */
  map_image_unknown: { upload: string };
  /** Postal code `code` is in the postal layer sent twice (in any case). */
  postal_duplicate: { code: string };
  /** The input failed validation (the message names the fields). */
  validation: Record<never, never>;
  /** PostgreSQL cannot be reached: retry after Retry-After. */
  database_unavailable: Record<never, never>;
}

/**
 * The reason of an error that has no specific one, by its status: a client can always branch on
 * `reason`, if only as coarsely as on the status.
 */
export const reasonByStatus = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  503: 'unavailable',
} as const;

export type GeneralReason = (typeof reasonByStatus)[keyof typeof reasonByStatus];
export type SpecificReason = keyof SpecificReasons;
export type ErrorReason = SpecificReason | GeneralReason;

/** A specific reason with its parameters, as an AppError is given one. */
export type Because = { [R in SpecificReason]: keyof SpecificReasons[R] extends never
  ? { reason: R; params?: undefined }
  : { reason: R; params: SpecificReasons[R] } }[SpecificReason];

/** The specific reasons, for documents and tests. */
export const specificReasons = [
  'not_clocked_in', 'already_clocked_in', 'off_duty', 'not_your_unit', 'not_in_unit', 'not_on_standby',
  'no_dispatcher_slot', 'slot_taken', 'all_slots_taken', 'call_taken', 'call_dismissed', 'call_resolved', 'incident_closed', 'unit_on_other_incident', 'no_alarm_status', 'unit_occupied',
  'status_in_use', 'unit_type_in_use', 'unknown_unit_type', 'capability_missing', 'scope_missing', 'session_only', 'alarm_session_only', 'admin_required',
  'module_off', 'csrf', 'missing_credential', 'name_taken', 'stale_version', 'validation', 'database_unavailable',
  'map_calibration_invalid', 'map_image_unknown', 'postal_duplicate',
] as const satisfies readonly SpecificReason[];

type Unlisted = Exclude<SpecificReason, (typeof specificReasons)[number]>;
/** Does not compile while a reason of SpecificReasons is missing from the list above. */
export const everyReasonListed: [Unlisted] extends [never] ? true : Unlisted = true;

/** Every reason an answer may carry. */
export const errorReasons: readonly ErrorReason[] = [...specificReasons, ...new Set(Object.values(reasonByStatus))];

/** The general reason of an HTTP status (`bad_request` for an unknown 4xx, `internal` for a 5xx). */
export function reasonOfStatus(status: number): GeneralReason {
  return (reasonByStatus as Record<number, GeneralReason>)[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}
