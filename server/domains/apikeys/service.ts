import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { generateApiKey, hashSecret } from '../../auth/api-keys.ts';
import type { Principal } from '../../auth/principal.ts';
import { lacksForScope, type Granter } from '../../../contract/scope-grants.ts';
import type { Scope } from '../../../contract/scopes.ts';
import type { Db } from '../../store/db.ts';
import * as store from './store.ts';

function present(k: store.KeyRow) {
  const { scopes, ...rest } = k;
  return scopes === null ? rest : { ...rest, scopes };
}

/**
 * Creates a key and returns it with its one and only sight of the secret. `scopes` null: unscoped.
 * No rights check: callers that act for a person check first (`checkKeyGrant`); the CLI is the operator.
 */
export async function createApiKey(db: Db, guildId: string, name: string, scopes: string[] | null) {
  const key = generateApiKey(scopes !== null);
  const row = await store.insertApiKey(db, guildId, { name, keyHash: hashSecret(key), last4: key.slice(-4), scopes });
  return { ...present(row), key };
}

export async function listApiKeys(deps: Deps, guildId: string) {
  return { keys: (await store.apiKeysOfGuild(deps.sql, guildId)).map(present) };
}

export async function deleteApiKey(deps: Deps, guildId: string, keyId: string) {
  const hash = await store.deleteApiKey(deps.sql, guildId, keyId);
  if (!hash) throw new AppError('NOT_FOUND', `no API key ${keyId} in this guild`);
  deps.bus.invalidate({ kind: 'apiKey', id: hash.toString('hex') }); // revoked on every node now, not at cache expiry
  return { deleted: true as const, id: keyId };
}

/** What a principal may give a key: guild admins and unscoped keys anything, a session what its rank holds, a scoped key nothing. */
export function granterOf(p: Principal): Granter {
  if (p.kind === 'key') return { isAdmin: p.scopes === null, capabilities: [] };
  return { isAdmin: p.isAdmin, capabilities: p.capabilities };
}

/**
 * 403 unless `who` may make this key: an unscoped key acts as the guild's admin, so only guild
 * admins make one; a scoped key may not open a route its maker could not call (auth/scope-grants.ts).
 */
export function checkKeyGrant(who: Granter, scopes: readonly Scope[] | null): void {
  if (scopes === null) {
    if (!who.isAdmin) throw new AppError('FORBIDDEN', 'only guild admins may create an unscoped key: it acts as the guild\'s admin. Create a scoped key (POST /admin/apikeys) with the scopes your script needs');
    return;
  }
  const refused = scopes.flatMap((scope) => {
    const lacks = lacksForScope(who, scope);
    if (!lacks) return [];
    return [lacks === 'admin' ? `${scope} needs guild admin rights` : `${scope} needs the capability ${lacks.join(' and ')}`];
  });
  if (refused.length) throw new AppError('FORBIDDEN', `a key may not do more than the person who makes it: ${refused.join('; ')}`);
}
