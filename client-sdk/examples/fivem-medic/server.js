// Dispatch Terminal medic sync for FiveM, server side. Your ambulance script reports what happens to a
// patient; every event goes into a write-ahead queue on disk first and is delivered to the patient file
// on the dispatch board in order, exactly once: through network outages, a revoked key, `restart`, a
// crashed server. Only server-side events and exports: a game client could send anything, so your
// server script checks care tier, item and range before it reports.
//
//   emit('dt:medic:event', { type: 'vitals', citizenId: 'ABC12345', heartRate: 92, spo2: 97 });
//   exports['dt-medic'].injury('ABC12345', { injuryId: 'i1', bodyPart: 'chest', kind: 'gunshot', severity: 4 });
//
// Event ids and timestamps are filled in when you leave them out. Console: `dt_medic_status`,
// `dt_medic_demo [citizenId]` (sends a demo patient: injuries, treatments, vitals, ECG, tox screen, X-ray).
const path = require('path');
const zlib = require('zlib');

const RESOURCE = GetCurrentResourceName();
const ROOT = GetResourcePath(RESOURCE);
const { createMedicSync, resolveMedicConfig, tierOfJobGrade } = require(path.join(ROOT, 'dt-client', 'medic.cjs'));
const { createGameBridge, request } = require(path.join(ROOT, 'dt-client', 'game.cjs'));

const say = (level, message) => console[level === 'info' ? 'log' : 'warn'](`[${RESOURCE}] ${message}`);
const cfg = resolveMedicConfig(Config.Medic); // throws naming every bad option: the resource does not start half-configured
const baseUrl = Config.Dispatch.url.replace(/\/+$/, '');
if (!baseUrl) say('warn', 'convar dt_url is not set: events are queued on disk until it is (then restart the resource)');

const { dir, ...syncOptions } = cfg.Sync;
const medic = createMedicSync({
  ...syncOptions,
  baseUrl: baseUrl || 'http://127.0.0.1:9', // never reached while dt_key is empty below
  apiKey: baseUrl ? Config.Dispatch.key : '',
  dir: path.join(ROOT, dir),
  idPrefix: RESOURCE,
  log: say,
});
const bridge = baseUrl && Config.Dispatch.key ? createGameBridge({ baseUrl, apiKey: Config.Dispatch.key }) : null;

/** Queues one event; returns its id, or null (logged) when it is not an event at all. */
function report(event) {
  try {
    return medic.enqueue(event);
  } catch (err) {
    say('error', `not queued: ${err.message}`);
    return null;
  }
}
const typed = (type) => (citizenId, fields) => report(Object.assign({}, fields, { type, citizenId }));

exports('event', report);
exports('admit', typed('patient_admitted'));
exports('discharge', typed('patient_discharged'));
exports('deceased', typed('patient_deceased'));
exports('respawned', typed('patient_respawned'));
exports('injury', typed('injury_added'));
exports('injuryChanged', typed('injury_changed'));
exports('treatment', typed('treatment_applied'));
exports('vitals', typed('vitals'));
exports('ecg', typed('ecg'));
exports('toxScreen', (citizenId, substances, unit) => report({ type: 'lab_toxicology', citizenId, substances, unit }));
exports('imaging', typed('imaging'));
exports('status', () => Object.assign(medic.stats(), { message: medic.status().message }));
exports('flush', (timeoutMs) => medic.flush(timeoutMs));
exports('careTier', careTier);
exports('notruf', notruf);

on('dt:medic:event', report);
on('dt:medic:state', (citizenId, state) => putState(citizenId, state));

// --- care tiers: the service's rank mapping wins over the job grade while the service answers ---
let qualifications = null; // { at, byBadge: Map<badge, {rankId, tier}> }
async function refreshQualifications() {
  if (!bridge) return;
  try {
    const res = await request(`${baseUrl}/api/v1/medic/qualifications`, { headers: { authorization: `Bearer ${Config.Dispatch.key}` } });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const byBadge = new Map(JSON.parse(res.body).tiers.filter((p) => p.badgeNumber).map((p) => [p.badgeNumber, p]));
    qualifications = { at: Date.now(), byBadge };
  } catch (err) {
    say('warn', `qualifications not read (${err.message}); job grades decide the care tier meanwhile`);
  }
}
/** Care tier 1..4 of a medic: their service rank (fresh within 10 min), else their job grade, else null. */
function careTier({ badge, jobGrade }) {
  if (badge !== undefined && qualifications && Date.now() - qualifications.at < 600000) {
    const person = qualifications.byBadge.get(String(Number(badge)).padStart(2, '0'));
    if (person) return cfg.Tiers.mdtRanks[person.rankId] || person.tier;
  }
  return jobGrade === undefined ? null : tierOfJobGrade(cfg, jobGrade);
}

// --- emergency calls also go to the dispatch board (Config.Medic.Notruf.toDispatch) ---
async function notruf({ id, title, message, location, caller }) {
  if (!cfg.Notruf.toDispatch || !bridge) return null;
  try {
    return await bridge.reportCall({ externalId: id, source: RESOURCE, kind: 'notruf', title: title || 'Notruf', message, location, caller });
  } catch (err) {
    say('warn', `emergency call ${id} not sent to the board: ${err.message}`);
    return null;
  }
}

// --- latest state of a citizen: last write by game time wins on the server; not queued (only the newest matters) ---
async function putState(citizenId, state) {
  if (!bridge) return;
  const res = await request(`${baseUrl}/api/v1/medic/citizens/${encodeURIComponent(citizenId)}/state`, {
    method: 'PUT', headers: { authorization: `Bearer ${Config.Dispatch.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(Object.assign({ at: Date.now() }, state)),
  }).catch((err) => ({ status: 0, body: err.message }));
  if (res.status !== 200) say('warn', `state of ${citizenId} not stored (${res.status}: ${res.body.slice(0, 200)})`);
}

let refresher = null;
on('onResourceStart', async (name) => {
  if (name !== RESOURCE) return;
  say('info', `medic sync to ${baseUrl || '(no dt_url)'}: ${medic.stats().restored} event(s) from the last run to send`);
  await refreshQualifications();
  refresher = setInterval(refreshQualifications, 300000);
});
on('onResourceStop', (name) => {
  if (name !== RESOURCE) return;
  clearInterval(refresher);
  medic.stop(); // fsync: whatever was enqueued is on disk for the next start
});

RegisterCommand('dt_medic_status', (source) => {
  if (source !== 0) return;
  const s = medic.stats();
  say('info', `${medic.status().state}: ${medic.status().message} | queued ${s.queued}, applied ${s.applied}, duplicates ${s.duplicates}, rejected ${s.rejected}, dropped vitals ${s.dropped}`);
}, true);

RegisterCommand('dt_medic_demo', async (source, args) => {
  if (source !== 0) return;
  const citizenId = args[0] || 'DEMO0001';
  const t = Date.now() - 60000;
  const by = { name: 'Dr. Demo', badge: '07' };
  report({ type: 'patient_admitted', citizenId, at: t, name: 'Demo Patient', reason: 'Verkehrsunfall', location: 'Legion Square' });
  report({ type: 'injury_added', citizenId, at: t + 1000, injuryId: 'demo-1', bodyPart: 'chest', kind: 'blunt', severity: 3, bleeding: 1 });
  report({ type: 'injury_added', citizenId, at: t + 1100, injuryId: 'demo-2', bodyPart: 'left_leg', kind: 'fracture', severity: 4 });
  report({ type: 'treatment_applied', citizenId, at: t + 5000, treatment: 'Druckverband', item: 'medic_bandage', injuryId: 'demo-1', by, tier: 3, result: 'success' });
  report({ type: 'treatment_applied', citizenId, at: t + 9000, treatment: 'Schiene', item: 'medic_splint', injuryId: 'demo-2', by, tier: 3, result: 'success' });
  report({ type: 'injury_changed', citizenId, at: t + 9500, injuryId: 'demo-1', bleeding: 0, state: 'treated' });
  for (let i = 0; i < 10; i++) {
    report({ type: 'vitals', citizenId, at: t + 10000 + i * 3000, heartRate: 118 - i * 3, systolic: 95 + i * 2, diastolic: 60 + i, spo2: 91 + Math.min(i, 7), respRate: 24 - i, temperature: 36.4, gcs: 14 });
  }
  report({ type: 'ecg', citizenId, at: t + 20000, rhythm: 'sinus_tachycardia', sampleRateHz: 250, lead: 'II', samples: ecgStrip(250, 4, 110) });
  report({ type: 'lab_toxicology', citizenId, at: t + 30000, unit: 'ng/mL', substances: { ethanol: 420, THC: 12.5, cocaine: 0 } });
  report({ type: 'imaging', citizenId, at: t + 40000, modality: 'xray', bodyPart: 'left_leg', finding: 'Geschlossene Unterschenkelfraktur links', image: xrayPng(96, 128) });
  say('info', `demo patient ${citizenId} queued (${medic.stats().queued} waiting)`);
}, true);

/** A synthetic ECG: `seconds` of beats at `bpm`, in mV, `hz` samples per second. */
function ecgStrip(hz, seconds, bpm) {
  const out = [];
  const beat = 60 / bpm;
  for (let i = 0; i < hz * seconds; i++) {
    const x = (i / hz) % beat / beat;
    const g = (c, w, a) => a * Math.exp(-((x - c) ** 2) / (2 * w * w));
    out.push(Math.round((g(0.2, 0.025, 0.15) - g(0.37, 0.01, 0.12) + g(0.4, 0.012, 1.3) - g(0.43, 0.01, 0.25) + g(0.7, 0.05, 0.3)) * 1000) / 1000);
  }
  return out;
}

/** A small grey-scale PNG that looks a bit like a leg on an X-ray, as a data URI (node:zlib only). */
function xrayPng(w, h) {
  const raw = Buffer.alloc((w + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w + 1)] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const bone = Math.abs(x - w / 2 - (y > h / 2 ? 3 : 0)) < 7 ? 200 : 0;
      const flesh = Math.abs(x - w / 2) < 26 ? 60 : 10;
      const gap = Math.abs(y - h / 2) < 2 ? -150 : 0;
      raw[y * (w + 1) + 1 + x] = Math.max(0, Math.min(255, flesh + bone + gap));
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grey-scale
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
