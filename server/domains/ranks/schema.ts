import { z } from 'zod';
import { capabilities, managementCapabilities } from '../../../contract/capabilities.ts';
import { trimmed } from '../../core/text.ts';

export const RankId = z.string({ error: 'id must be a string' })
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'rank id must be 1 to 32 characters of A-Z, a-z, 0-9, _ and -');
const RankName = trimmed(64, 'name')
  .describe('Unique in the guild regardless of case.');
const Position = z.number({ error: 'position must be a whole number' }).int('position must be a whole number')
  .min(0, 'position is at least 0').max(9999, 'position is at most 9999')
  .describe('Order of the ranks: higher is a higher rank (a move up is a promotion).');
const Capability = z.enum(capabilities, {
  error: (iss) => `unknown capability ${JSON.stringify(iss.input)}; known capabilities: ${capabilities.join(', ')}`,
});
const Capabilities = z.array(Capability, { error: 'capabilities must be an array of capability names' })
  .max(capabilities.length)
  .refine((list) => new Set(list).size === list.length, 'capabilities must not repeat')
  .describe(`Rank capabilities: ${capabilities.join(', ')}.`);

const GameAssignable = z.boolean({ error: 'gameAssignable must be true, false or null' }).nullable()
  .describe('Whether the game may assign and take away this rank (PUT /integrations/ingame/ranks): true, false, or null for the default '
    + `(true unless the rank carries a management capability: ${managementCapabilities.join(', ')}). `
    + 'Only guild admins may set true on a rank with management capabilities.');

export const RankIdParam = z.strictObject({ id: RankId });

export const CreateRank = z.strictObject({
  id: RankId.optional().describe('Optional; derived from the name when absent (e.g. "Notfallsanitäter" -> "notfallsanitaeter").'),
  name: RankName,
  position: Position,
  capabilities: Capabilities,
  gameAssignable: GameAssignable.optional(),
});

const changeable = ['name', 'position', 'capabilities', 'gameAssignable'] as const;
export const UpdateRank = z.strictObject({
  id: RankId,
  name: RankName.optional(),
  position: Position.optional(),
  capabilities: Capabilities.optional(),
  gameAssignable: GameAssignable.optional(),
}).refine((r) => changeable.some((k) => r[k] !== undefined), `give at least one of ${changeable.join(', ')}`);

export const Rank = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  capabilities: z.array(z.string()),
  gameAssignable: z.boolean().nullable().describe('As set: true, false, or null for the default rule.'),
  assignableFromGame: z.boolean().describe('Whether the game may assign and take away this rank now (gameAssignable, or the default rule when null).'),
  holders: z.number().int().describe('People who hold the rank.'),
});
export const RankList = z.object({ ranks: z.array(Rank).describe('Highest position first.') });
export const RankDeleted = z.object({ deleted: z.literal(true), id: z.string() });
