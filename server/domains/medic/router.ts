import { guildProcedure, router } from '../../trpc/init.ts';
import { requireOwnGuild } from '../../trpc/session.ts';
import { actorName } from '../calls/router.ts';
import * as s from './schema.ts';
import { closeFile, ingest, listPatients, medicImage, patientFile, putCitizenState, qualifications, setTiers, tierMapping, vitalSeries } from './service.ts';

const MiB = (n: number) => n / 1048576;
const tag = 'Medic und InGame';

export const medicRouter = router({
  events: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/medic/events', maxBodyBytes: s.medicLimits.bodyBytes }, tag,
      summary: `A batch of 1..${s.medicLimits.batch} typed events from the game (${s.eventTypes.join(', ')}), applied in array order. `
        + 'Each event is checked alone: the answer (200) has one result per event — applied, duplicate (its id was stored before in this guild, of any type: a retried batch is applied once), '
        + 'or rejected with code 400 (unknown type, bad or unknown field; the error names it), 413 (image over 5 MiB decoded) or 415 (image not PNG/JPEG/WebP); a rejected event never blocks the others. '
        + 'An event for a citizen without an open patient file opens one (its opening time is the event\'s `at`), except discharge/death/respawn, which close the open file and otherwise are only kept in the citizen\'s timeline. '
        + 'Unscoped API keys only (the game resource\'s).',
      access: 'admin', capability: 'medic.files.manage', module: 'medic', topics: ['medic'],
      errors: {
        400: `The body is not {events: [...]} with 1..${s.medicLimits.batch} events (a bad single event is a rejected result in the 200, not a 400).`,
        413: `Body larger than ${MiB(s.medicLimits.bodyBytes)} MiB (images are base64 in the body); a single image over 5 MiB is a rejected result instead.`,
      },
    })
    .input(s.EventBatch).output(s.IngestResult)
    .mutation(({ ctx, input }) => ingest(ctx.deps, ctx.guildId, input.events)),

  putState: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/medic/citizens/{id}/state' }, tag,
      summary: 'The latest state of a citizen (ok, injured, downed, dead, in_treatment, respawning, with health, armor, position …). Last write by game time `at` wins: '
        + 'an older or equal `at` is ignored and the answer says so (applied false, with the state kept).',
      access: 'admin', capability: 'medic.files.manage', module: 'medic', topics: ['medic'],
    })
    .input(s.StateInput).output(s.StateResult)
    .mutation(({ ctx, input }) => putCitizenState(ctx.deps, ctx.guildId, input)),

  qualifications: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/qualifications' }, tag,
      summary: 'Each person\'s care tier (1 first aider, 2 EMT, 3 paramedic, 4 emergency physician) from the guild\'s rank → tier mapping (Config.Medic.Tiers.mdtRanks); '
        + 'people whose rank has no tier are left out. Read by the game resource; it wins over job grade while the service is reachable.',
      access: 'admin', capability: 'medic.files.view', module: 'medic',
    })
    .output(s.Qualifications)
    .query(({ ctx }) => qualifications(ctx.deps, ctx.guildId)),

  tiers: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/tiers' }, tag,
      summary: 'The rank → care tier mapping.',
      access: 'admin', capability: 'medic.files.view', module: 'medic',
    })
    .output(s.TierMapping)
    .query(({ ctx }) => tierMapping(ctx.deps, ctx.guildId)),

  setTiers: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/medic/tiers' }, tag,
      summary: 'Replaces the whole rank → care tier mapping (tier 1..4 per rank; ranks left out have no tier).',
      access: 'admin', capability: 'medic.files.manage', module: 'medic', audit: 'medic.tiers_set', topics: ['settings'],
      errors: { 400: 'A rank that is not a rank of this guild, a rank given twice, or a tier outside 1..4.' },
    })
    .input(s.SetTiers).output(s.TierMapping)
    .mutation(({ ctx, input }) => setTiers(ctx.deps, ctx.guildId, input.mapping, ctx.actor)),

  patients: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/patients' }, tag,
      summary: 'Patient files, newest activity (game time of their newest event) first: open ones by default; q searches citizen id prefix and name. '
        + 'Pages: pass nextBefore as before. The live view is topic medic.',
      access: 'view', capability: 'medic.files.view', module: 'medic',
    })
    .input(s.PatientQuery).output(s.PatientList)
    .query(({ ctx, input }) => listPatients(ctx.deps, ctx.guildId, input ?? {})),

  patient: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/patients/{fileId}' }, tag,
      summary: 'A whole patient file: injuries, timeline (every event but vital samples, with a German summary each), treatments, vital signs (at most 500 points, bucket means when more), '
        + 'the newest 10 ECG strips, lab results and images (with their URLs).',
      access: 'view', capability: 'medic.files.view', module: 'medic',
      errors: { 404: 'No such patient file in this guild.' },
    })
    .input(s.FileParams).output(s.PatientDetail)
    .query(({ ctx, input }) => patientFile(ctx.deps, ctx.guildId, input.fileId)),

  vitals: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/patients/{fileId}/vitals' }, tag,
      summary: 'Vital signs of a file between from and to (game time, epoch ms), oldest first: as stored when at most maxPoints, else the means of maxPoints equal time buckets.',
      access: 'view', capability: 'medic.files.view', module: 'medic',
      errors: { 404: 'No such patient file in this guild.' },
    })
    .input(s.VitalsQuery).output(s.VitalSeries)
    .query(({ ctx, input }) => vitalSeries(ctx.deps, ctx.guildId, input.fileId, input)),

  image: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/medic/images/{id}', produces: 'image/*', cache: 'private, max-age=3600', guildQuery: true }, tag,
      summary: 'An X-ray or CT image of a patient file, byte for byte (PNG, JPEG or WebP). For a signed-in browser the guild may come from the query parameter guild, so the image\'s url works in an <img src>.',
      access: 'view', capability: 'medic.files.view', module: 'medic',
      errors: { 400: 'Bad id or guild, or guild and x-guild-id name different guilds.', 404: 'No such image in this guild.' },
    })
    .input(s.ImageParams).output(s.ImageFile)
    .query(({ ctx, input }) => {
      requireOwnGuild(input.guild, ctx.guildId);
      return medicImage(ctx.deps, ctx.guildId, input.id);
    }),

  close: guildProcedure
    .meta({
      rest: { method: 'POST', path: '/medic/patients/{fileId}/close' }, tag,
      summary: 'Closes an open patient file from the board (outcome closed, closing time now); the timeline records who closed it and the note. A later event of the citizen opens a new file.',
      access: 'admin', capability: 'medic.files.manage', module: 'medic', audit: 'medic.file_close', topics: ['medic'],
      errors: { 404: 'No such patient file in this guild.', 409: 'The file is already closed.' },
    })
    .input(s.CloseInput).output(s.PatientDetail)
    .mutation(({ ctx, input }) => closeFile(ctx.deps, ctx.guildId, input.fileId, input.note, ctx.actor, actorName(ctx).name ?? ctx.actor.id)),
});
