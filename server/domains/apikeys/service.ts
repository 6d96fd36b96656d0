import { AppError } from '../../core/errors.ts';
import type { Deps } from '../../deps.ts';
import { generateApiKey, hashSecret } from '../../auth/api-keys.ts';
import type { Db } from '../../store/db.ts';
import * as store from './store.ts';

function present(k: store.KeyRow) {
  const { scopes, ...rest } = k;
  return scopes === null ? rest : { ...rest, scopes };
}

/** Creates a key and returns it with its one and only sight of the secret. `scopes` null: unscoped. */
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
