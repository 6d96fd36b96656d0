import type { Deps } from '../deps.ts';
import type { AuthResult, Credentials } from '../auth/principal.ts';
import type { LiveSocket } from '../hub/fanout.ts';

/** Facts about the request that the access check needs beyond the credentials (CSRF defence). */
export interface RequestFacts {
  /** Browser said the request comes from another site (Sec-Fetch-Site or a foreign Origin). */
  crossSite: boolean;
  /** The body was declared as application/json. */
  jsonBody: boolean;
}

export interface Context {
  deps: Deps;
  auth: AuthResult;
  facts: RequestFacts;
  /** Set for subscriptions on the uWS WebSocket endpoint: the socket to attach live frames to. */
  ws?: LiveSocket;
}

export async function createContext(deps: Deps, credentials: Credentials, facts: RequestFacts): Promise<Context> {
  return { deps, auth: await deps.auth.authenticate(credentials), facts };
}
