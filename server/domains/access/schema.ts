import { z } from 'zod';
import { scopes } from '../../../contract/scopes.ts';

const Modules = z.record(z.string(), z.boolean()).describe('The guild\'s module switches (a switched-off module\'s routes answer 404).');

export const AccessStatus = z.object({
  guildId: z.string(),
  kind: z.enum(['session', 'key']),
  userId: z.string().optional().describe('Sessions only.'),
  nickname: z.string().optional().describe('Sessions only.'),
  rankId: z.string().nullable().optional().describe('Sessions only.'),
  rank: z.string().nullable().optional().describe('Rank name; sessions only.'),
  keyId: z.string().optional().describe('API keys only.'),
  keyName: z.string().optional().describe('API keys only.'),
  isAdmin: z.boolean().describe('Guild admin rights; true for unscoped API keys.'),
  capabilities: z.array(z.string()).describe('Effective rank capabilities: all of them for admins and unscoped keys; none for scoped keys, which pass by scope.'),
  scopes: z.array(z.string()).optional().describe('Scoped API keys only: the key\'s scopes.'),
  modules: Modules,
  partnerAreas: z.array(z.object({ guildId: z.string(), name: z.string(), areas: z.array(z.string()) }))
    .describe('Areas other guilds released to this one. No partner releases exist yet: always empty.'),
});

const Scope = z.enum(scopes, { error: (iss) => `unknown scope ${JSON.stringify(iss.input)}; known scopes: ${scopes.join(', ')}` });

/** `need` as a query string ("calls:read,employees:read") or, over tRPC, an array. */
export const SelfCheckQuery = z.strictObject({
  need: z.union([
    z.array(z.string()),
    z.string().transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x.length > 0)),
  ]).pipe(z.array(Scope).min(1, 'need names at least one scope').max(scopes.length * 2))
    .describe('Comma-separated scopes the game resource wants to use; default: the scopes of the dispatch game resource (every scope of spec §5.7 except the facility ones).')
    .optional(),
}).optional();

export const SelfCheck = z.object({
  ok: z.literal(true).describe('The key is valid and reached its guild (an invalid key gets 401).'),
  guildId: z.string(),
  keyId: z.string(),
  keyName: z.string(),
  unscoped: z.boolean().describe('Unscoped keys pass every route of their guild.'),
  scopes: z.array(z.string()).describe('The key\'s scopes; every scope for an unscoped key.'),
  need: z.array(z.string()).describe('The scopes checked.'),
  missing: z.array(z.string()).describe('Scopes of `need` the key lacks; empty when the key is complete.'),
  complete: z.boolean().describe('missing is empty.'),
  medicSync: z.boolean().describe('The key can use /medic routes: unscoped keys only, and module medic on.'),
  modules: Modules,
  serverTime: z.date(),
});
