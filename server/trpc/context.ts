import type { Deps } from '../deps.ts';
import type { AuthResult, Credentials } from '../auth/principal.ts';
import type { LiveSocket } from '../hub/fanout.ts';
import { databaseUnavailable, isConnectionFailure } from '../store/faults.ts';
import { databaseLost } from '../store/health.ts';

/** Facts about the request that the access check needs beyond the credentials (CSRF defence). */
export interface RequestFacts {
  /** Browser said the request comes from another site (Sec-Fetch-Site or a foreign Origin). */
  crossSite: boolean;
  /** The body was declared as application/json. */
  jsonBody: boolean;
  /** The request has no body at all (no Content-Length or 0, no Transfer-Encoding); absent: it may have one. */
  bodyless?: boolean;
}

export interface Context {
  deps: Deps;
  auth: AuthResult;
  facts: RequestFacts;
  /** Set for subscriptions on the uWS WebSocket endpoint: the socket to attach live frames to. */
  ws?: LiveSocket;
}

export async function createContext(deps: Deps, credentials: Credentials, facts: RequestFacts): Promise<Context> {
  return { deps, auth: await authenticate(deps, credentials), facts };
}

/**
 * The credentials' principal. While the database is down, or when looking it up fails for want of
 * a connection, the failure to report is a 503 (guild procedures throw it; public ones never read
 * it): never a 500 from creating the context, and no connect timeout waited for.
 */
async function authenticate(deps: Deps, credentials: Credentials): Promise<AuthResult> {
  if (!deps.dbHealth.up) return { principal: null, failure: databaseUnavailable() };
  try {
    return await deps.auth.authenticate(credentials);
  } catch (err) {
    if (!isConnectionFailure(err)) throw err;
    return { principal: null, failure: databaseLost(deps.dbHealth, err) };
  }
}
