import { z } from 'zod';
import { scopes } from '../../../contract/scopes.ts';
import { trimmed } from '../../core/text.ts';

const Scope = z.enum(scopes, { error: (iss) => `unknown scope ${JSON.stringify(iss.input)}; known scopes: ${scopes.join(', ')}` });
const KeyName = trimmed(64, 'name');

export const CreateScopedKey = z.strictObject({
  name: KeyName,
  scopes: z.array(Scope).min(1, 'a scoped key needs at least one scope').max(scopes.length)
    .refine((list) => new Set(list).size === list.length, 'scopes must not repeat'),
});

/** Board settings: an unscoped key has no scopes to choose, only a name. */
export const CreateUnscopedKey = z.strictObject({ name: KeyName });

export const KeyIdParam = z.strictObject({ id: z.string().regex(/^\d{1,18}$/, 'id must be a key id') });

export const ApiKeyInfo = z.object({
  id: z.string(),
  name: z.string(),
  last4: z.string(),
  scopes: z.array(z.string()).optional().describe('Absent on unscoped keys.'),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
});

export const CreatedKey = ApiKeyInfo.extend({
  key: z.string().describe('The key itself. Shown only in this response.'),
});

export const KeyList = z.object({ keys: z.array(ApiKeyInfo) });
export const Deleted = z.object({ deleted: z.literal(true), id: z.string() });
