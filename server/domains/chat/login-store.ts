import type { Db } from '../../store/db.ts';

// ---- "Login with Discord": OAuth2 states (sql/0010) -------------------------------------------

/**
 * Stores a started sign-in: the state's SHA-256 with its PKCE verifier, valid for `ttlMs`. Expired
 * states are cleared in the same statement, so abandoned sign-ins never pile up.
 */
export async function insertOAuthState(db: Db, stateHash: Buffer, codeVerifier: string, ttlMs: number): Promise<void> {
  await db`with expired as (delete from oauth_states where expires_at <= now())
    insert into oauth_states (state_hash, code_verifier, expires_at)
    values (${stateHash}, ${codeVerifier}, now() + ${ttlMs} * interval '1 millisecond')`;
}

/**
 * Takes a state: deletes it and returns its verifier when it was still valid; null when unknown,
 * expired or already taken. At most once per state, on whichever node the callback lands.
 */
export async function takeOAuthState(db: Db, stateHash: Buffer): Promise<string | null> {
  const [row] = await db`delete from oauth_states where state_hash = ${stateHash}
    returning code_verifier, expires_at > now() as live`;
  return row?.live ? row.code_verifier : null;
}
