import type { Capability } from './capabilities.ts';
import type { Scope } from './scopes.ts';
import type { ModuleName } from './modules.ts';
import type { Topic } from './topics.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Everything the doors and the docs need to know about a procedure. Access is data:
 * - `none`: public; `member`: any member of the guild (session) or any key of it;
 * - `view`: needs `capability`; `admin`: admin rights or `capability` when given.
 * Unscoped keys act as the guild's admin; scoped keys pass only where `scopes` names one of theirs.
 */
export interface Meta {
  /**
   * REST binding under /api/v1. `produces`: a non-JSON body (the procedure returns `{contentType, base64}`
   * for images or `{contentType, text}` for text). `aliases`: the same route also at these root paths.
   * `root`: the path is relative to the server root, not /api/v1 (the board page).
   * `constant`: a public, inputless JSON query whose answer never changes (liveness): the REST door
   * keeps the body of its first successful answer and sends it without calling the procedure again.
   * `produces: 'image/*'`: an image whose type the procedure's `contentType` names. `cache`: the
   * Cache-Control of a `produces` image (default `public, max-age=300`).
   * `guildQuery`: a session may name its guild by the query parameter `guild` instead of the
   * x-guild-id header, for URLs a browser loads without script (an <img src>); the procedure's
   * input declares `guild`. The header wins when both are sent.
   * `multipart`: the body is multipart/form-data holding one file part named `field` (at most
   * `maxBytes`; the whole body at most `maxBodyBytes`), streamed through busboy by the REST door
   * (transport/multipart.ts), which hands the procedure `{[field]: {name, data: Buffer}}` merged into
   * the input. Only that door can make a Buffer: the procedure still checks the bytes itself.
   * An image answer's `filename` (when the procedure returns one) becomes a safe Content-Disposition.
   * `maxBodyBytes`: this route's JSON body limit over REST, instead of `config.limits.jsonBodyBytes` (1 MiB).
   */
  rest?: {
    method: HttpMethod; path: string; produces?: 'image/png' | 'image/*' | 'text/html' | 'text/plain';
    cache?: string; guildQuery?: boolean; aliases?: string[]; root?: boolean; constant?: boolean;
    multipart?: { field: string; maxBytes: number; maxBodyBytes: number };
    maxBodyBytes?: number;
  };
  tag: string;
  summary: string;
  access: 'none' | 'member' | 'view' | 'admin';
  capability?: Capability;
  scopes?: Scope[];
  sessionOnly?: boolean;
  /**
   * Open to alarm sessions too (the terminal alarm client's, which never end while in use): they
   * may call these procedures and nothing else.
   */
  alarmSession?: boolean;
  module?: ModuleName;
  audit?: string;
  topics?: Topic[];
  /**
   * Statuses this route can answer besides 200 and the auth ones, with their meaning. 503 (database
   * unavailable) is documented for every route with access; public routes that use the database name it here.
   */
  errors?: Partial<Record<400 | 404 | 409 | 413 | 415 | 429 | 503, string>>;
}
