import { guildProcedure, router } from '../../trpc/init.ts';
import { requireOwnGuild } from '../../trpc/session.ts';
import { mapLimits } from '../../../contract/map.ts';
import * as s from './schema.ts';
import * as svc from './service.ts';

const read = { access: 'view' as const, capability: 'dispatch.view' as const, module: 'dispatch' as const };
// Edits reach Einstellungen (`settings`) and every Karte tab (the notice {op: 'map'} on `units`).
const manage = { access: 'admin' as const, capability: 'settings.manage' as const, module: 'dispatch' as const };
const edit = { ...manage, topics: ['settings', 'units'] as ['settings', 'units'] };

/** The guild's map: image, calibration, stale time and postal layer (README.md). */
export const mapRouter = router({
  get: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/map' }, tag: 'Leitstelle',
      summary: 'The map the Karte tab draws: its image (an upload, served to dispatch.view at image.url), the calibration by two points, when a position is stale, and how many postal codes the layer holds.',
      ...read,
    })
    .output(s.MapSettings)
    .query(({ ctx }) => svc.getMap(ctx.deps, ctx.guildId)),

  // The same settings for Einstellungen: someone who may change the map must see it, with or without dispatch.view.
  settings: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/admin/map' }, tag: 'Einrichtung',
      summary: 'The map\'s settings as GET /map answers them, for those who may change them (settings.manage) whether or not they may read the board.',
      ...manage,
    })
    .output(s.MapSettings)
    .query(({ ctx }) => svc.getMap(ctx.deps, ctx.guildId)),

  image: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/map/image', produces: 'image/*', cache: 'private, max-age=3600', guildQuery: true }, tag: 'Leitstelle',
      summary: 'The map\'s image, byte for byte (for boards with dispatch.view, who cannot read GET /uploads/{id}). For a signed-in browser the guild may come from the query parameter guild, so GET /map\'s image.url works in an <img src>.',
      ...read,
      errors: { 400: 'Bad guild or v, or guild and x-guild-id name different guilds.', 404: 'The map has no image.' },
    })
    .input(s.MapImageParams.optional()).output(s.MapImage)
    .query(({ ctx, input }) => {
      requireOwnGuild(input?.guild, ctx.guildId);
      return svc.mapImage(ctx.deps, ctx.guildId);
    }),

  set: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/map' }, tag: 'Einrichtung',
      summary: 'Change the map: its image (an upload of this guild; null: none), the calibration (two points {px, py, x, y}; null clears it) and staleAfterSeconds. Fields left out keep their value; a new image clears the calibration unless one is sent with it.',
      ...edit, audit: 'map.set',
      errors: {
        400: `Invalid body, or a calibration whose points lie off the image or do not differ by ${mapLimits.minSpread} in px, py, x and y, or a calibration without an image (map_calibration_invalid).`,
        404: 'No upload of that id in this guild (map_image_unknown).',
      },
    })
    .input(s.PutMap).output(s.MapSettings)
    .mutation(({ ctx, input }) => svc.setMap(ctx.deps, ctx.guildId, input, ctx.actor)),

  postals: guildProcedure
    .meta({
      rest: { method: 'GET', path: '/map/postals' }, tag: 'Leitstelle',
      summary: 'The postal layer: every code with its game position.',
      ...read,
    })
    .output(s.PostalList)
    .query(({ ctx }) => svc.listPostals(ctx.deps, ctx.guildId)),

  setPostals: guildProcedure
    .meta({
      rest: { method: 'PUT', path: '/admin/map/postals', maxBodyBytes: 4 * 1024 * 1024 }, tag: 'Einrichtung',
      summary: `Replace the postal layer with the file of a FiveM postal resource, wrapped: {postals: [{code, x, y}]} (at most ${mapLimits.postals}; [] clears it). Calls reported with a postal and no x/y take the code's position.`,
      ...edit, audit: 'map.postals_set',
      errors: { 400: 'Invalid body, too many entries, a coordinate out of range, or a code twice in any case (postal_duplicate).', 413: 'The body is larger than 4 MiB.' },
    })
    .input(s.PutPostals).output(s.PostalsSet)
    .mutation(({ ctx, input }) => svc.setPostals(ctx.deps, ctx.guildId, input.postals, ctx.actor)),
});
