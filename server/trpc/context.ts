import type { Deps } from '../deps.ts';
import type { AuthResult, Credentials } from '../auth/principal.ts';

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
}

export async function createContext(deps: Deps, credentials: Credentials, facts: RequestFacts): Promise<Context> {
  return { deps, auth: await deps.auth.authenticate(credentials), facts };
}
