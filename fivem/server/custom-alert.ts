/**
 * ps-dispatch's `CustomAlert` payload mapped onto our call report (`POST /integrations/ingame/calls`),
 * so a resource written for ps-dispatch reports to the board by naming this resource instead.
 * Fields read: message, code, codeName/dispatchCode, priority, coords {x,y,z}, street, gender,
 * camId, firstColor/color, model/vehicle, plate, name, callsign, weapon, jobs/job, doorCount,
 * automaticGunfire. Blip fields (sprite, radius, sound, flash …) mean nothing on the board and are
 * ignored. Each alert is a new call (ps-dispatch has no id to update).
 */
import type { ReportCallInput } from '../../client-sdk/game.ts';
import { callLimits } from '../../contract/limits.ts';
import { ExportError } from './results.ts';

/** Codes and names that mean a colleague in danger: reported as kind `panik` (priority 1). */
const PANIC = /^(10-99|10-13a|10-13b)$|panic|officerdown|officerdistress|emsdown/i;

const text = (v: unknown, max: number): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
  if (typeof v !== 'string') return null;
  const s = v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return s ? s.slice(0, max) : null;
};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= callLimits.coordinate ? v : null);

let counter = 0;

/**
 * The call report for one CustomAlert payload. `reporter` names the resource that sent it (the
 * call's `source`). Throws an ExportError for a payload that is not one (no table, no message and
 * no code, coordinates that are not numbers).
 */
export function callOfCustomAlert(data: unknown, reporter: string, now = Date.now()): ReportCallInput {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ExportError('CustomAlert needs a table like { message = "…", code = "10-80", coords = vector3(…) }');
  const d = data as Record<string, unknown>;
  const message = text(d.message, callLimits.title);
  const code = text(d.code, 20);
  const codeName = text(d.codeName ?? d.dispatchCode, 40);
  if (!message && !code && !codeName) throw new ExportError('CustomAlert needs a message, a code or a codeName');
  let location: ReportCallInput['location'];
  if (d.coords !== undefined && d.coords !== null) {
    const c = d.coords as Record<string, unknown>;
    const x = num(c?.x), y = num(c?.y);
    if (x === null || y === null) throw new ExportError('coords must have numbers x and y');
    location = { x, y, ...(text(d.street, callLimits.street) ? { street: text(d.street, callLimits.street)! } : {}) };
  } else if (text(d.street, callLimits.street)) {
    location = text(d.street, callLimits.street)!;
  }
  const panic = PANIC.test(code ?? '') || PANIC.test(codeName ?? '');
  const p = num(d.priority);
  const priority = panic ? 1 : p === 1 || p === 3 ? p : 2;
  const jobs = Array.isArray(d.jobs) ? d.jobs.map((j) => text(j, 20)).filter(Boolean) : text(d.job, 20) ? [text(d.job, 20)] : [];
  const details: [string, unknown][] = [
    ['Geschlecht', d.gender], ['Fahrzeug', d.model ?? d.vehicle], ['Kennzeichen', d.plate], ['Farbe', d.firstColor ?? (typeof d.color === 'string' ? d.color : null)],
    ['Türen', d.doorCount], ['Waffe', d.weapon], ['Dauerfeuer', d.automaticGunfire === true ? 'ja' : null], ['Kamera', d.camId],
    ['Rufname', d.callsign], ['Name', d.name], ['Für', jobs.join(', ')],
  ];
  const lines = details.map(([k, v]) => [k, text(v, 80)]).filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`);
  const call: ReportCallInput = {
    externalId: `ps-${(codeName ?? 'alert').replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 40) || 'alert'}-${now.toString(36)}-${(++counter).toString(36)}`,
    source: text(reporter, callLimits.source) ?? 'ps-dispatch',
    kind: panic ? 'panik' : 'alarm',
    priority,
    title: [code, message ?? codeName].filter(Boolean).join(' ').slice(0, callLimits.title),
  };
  if (lines.length) call.message = lines.join(' · ').slice(0, callLimits.message);
  if (location !== undefined) call.location = location;
  return call;
}
