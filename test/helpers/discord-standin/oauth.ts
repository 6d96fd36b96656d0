import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DiscordError, unauthorized } from './http.ts';
import type { StandInUser, World } from './state.ts';

const SCOPES = new Set(['identify', 'email', 'guilds', 'guilds.join', 'guilds.members.read', 'connections', 'bot', 'applications.commands', 'applications.commands.permissions.update', 'openid', 'role_connections.write', 'messages.read', 'webhook.incoming', 'gdm.join', 'rpc']);
const CODE_LIFETIME_MS = 10 * 60_000;
const TOKEN_LIFETIME_S = 604_800;

interface Grant { userId: string; scope: string[]; redirectUri: string; challenge: string; expiresAt: number }
interface Token { userId: string; scope: string[]; expiresAt: number }

export interface AuthorizeAnswer { status: number; headers: Record<string, string>; body: string }

const page = (status: number, text: string): AuthorizeAnswer => ({
  status, headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><meta charset="utf-8"><title>Discord</title><h1>${status === 200 ? 'Discord' : 'Fehler'}</h1><p>${text.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`,
});
const oauthError = (status: number, error: string, description: string) => new DiscordError(status, { error, error_description: description });
const token = () => randomBytes(22).toString('base64url');

/** Discord's OAuth2 authorization-code flow with PKCE (S256), for "Login with Discord". */
export class OAuth {
  /** undefined: nobody signed in yet (the page says so); null: the user presses "Cancel". */
  signedIn: string | null | undefined = undefined;
  private readonly codes = new Map<string, Grant>();
  private readonly tokens = new Map<string, Token>();
  private readonly refreshTokens = new Map<string, Token>();
  /** Every authorize page request: its query and the answer's status. */
  readonly authorizations: Array<{ query: Record<string, string>; status: number; at: number }> = [];

  constructor(private readonly world: World) {}

  /** GET /oauth2/authorize */
  authorize(query: URLSearchParams): AuthorizeAnswer {
    const answer = this.authorizeAnswer(query);
    this.authorizations.push({ query: Object.fromEntries(query), status: answer.status, at: Date.now() });
    return answer;
  }

  private authorizeAnswer(q: URLSearchParams): AuthorizeAnswer {
    if (q.get('client_id') !== this.world.applicationId) return page(400, 'Unbekannte Anwendung (client_id).');
    const scope = (q.get('scope') ?? '').split(/[ +]/).filter(Boolean);
    if (!scope.length || scope.some((s) => !SCOPES.has(s))) return page(400, `Ungültiger scope: ${q.get('scope') ?? ''}`);
    if (scope.includes('bot') && !q.get('response_type')) {
      // The bot invite page: the admin picks a server and confirms the permissions.
      return page(200, `Bot ${this.world.botUsername} zu einem Server hinzufügen. Berechtigungen: ${q.get('permissions') ?? '0'}; scope: ${scope.join(' ')}.`);
    }
    if (q.get('response_type') !== 'code') return page(400, 'response_type muss code sein.');
    const redirect = q.get('redirect_uri');
    let redirectUrl: URL;
    try {
      redirectUrl = new URL(redirect ?? '');
      if (!/^https?:$/.test(redirectUrl.protocol)) throw new Error();
    } catch {
      return page(400, 'Ungültige OAuth2 redirect_uri.');
    }
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return page(400, 'PKCE fehlt: code_challenge (base64url, 43 Zeichen) mit code_challenge_method=S256 verlangt.');
    }
    if (this.signedIn === undefined) return page(400, 'Discord stand-in: niemand ist angemeldet (signInAs(userId) im Test aufrufen).');
    const state = q.get('state');
    if (this.signedIn === null) {
      redirectUrl.searchParams.set('error', 'access_denied');
      redirectUrl.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
    } else {
      const code = token();
      this.codes.set(code, { userId: this.signedIn, scope, redirectUri: redirect!, challenge, expiresAt: Date.now() + CODE_LIFETIME_MS });
      redirectUrl.searchParams.set('code', code);
    }
    if (state !== null) redirectUrl.searchParams.set('state', state);
    return { status: 302, headers: { location: redirectUrl.toString() }, body: '' };
  }

  private clientOk(form: Record<string, string>, authorization: string | undefined): boolean {
    let id = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (id !== this.world.applicationId || typeof secret !== 'string') return false;
    const a = Buffer.from(secret);
    const b = Buffer.from(this.world.clientSecret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private issue(userId: string, scope: string[]) {
    const access = token();
    const refresh = token();
    const record = { userId, scope, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 };
    this.tokens.set(access, record);
    this.refreshTokens.set(refresh, record);
    return { access_token: access, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, refresh_token: refresh, scope: scope.join(' ') };
  }

  /** POST /oauth2/token (form encoded). */
  exchange(contentType: string | undefined, form: any, authorization: string | undefined): unknown {
    if (!(contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded') || !form || typeof form !== 'object') {
      throw oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    }
    if (!this.clientOk(form, authorization)) throw oauthError(401, 'invalid_client', 'Invalid client credentials');
    if (form.grant_type === 'refresh_token') {
      const old = this.refreshTokens.get(String(form.refresh_token ?? ''));
      if (!old) throw oauthError(400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      this.refreshTokens.delete(String(form.refresh_token));
      return this.issue(old.userId, old.scope);
    }
    if (form.grant_type !== 'authorization_code') throw oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${form.grant_type}`);
    const grant = this.codes.get(String(form.code ?? ''));
    if (!grant || grant.expiresAt < Date.now()) throw oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
    if (form.redirect_uri !== grant.redirectUri) throw oauthError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
    const verifier = String(form.code_verifier ?? '');
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) throw oauthError(400, 'invalid_grant', 'Invalid "code_verifier" in request.');
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) throw oauthError(400, 'invalid_grant', 'Invalid "code_verifier" in request.');
    this.codes.delete(String(form.code)); // a code is good for one exchange
    return this.issue(grant.userId, grant.scope);
  }

  /** POST /oauth2/token/revoke */
  revoke(form: any, authorization: string | undefined) {
    if (!this.clientOk(form ?? {}, authorization)) throw oauthError(401, 'invalid_client', 'Invalid client credentials');
    const t = String(form?.token ?? '');
    const record = this.tokens.get(t) ?? this.refreshTokens.get(t);
    for (const map of [this.tokens, this.refreshTokens]) for (const [k, v] of map) if (v === record) map.delete(k);
    return {};
  }

  /** The signed-in user behind a Bearer token, checked for the scope a route needs (401 as Discord answers). */
  bearer(accessToken: string, scope: string): { user: StandInUser; scope: string[] } {
    const record = this.tokens.get(accessToken);
    if (!record || record.expiresAt < Date.now() || !record.scope.includes(scope)) throw unauthorized();
    const user = this.world.users.get(record.userId);
    if (!user) throw unauthorized();
    return { user, scope: record.scope };
  }

  /** GET /oauth2/@me: the current authorization. */
  info(accessToken: string) {
    const record = this.tokens.get(accessToken);
    if (!record) throw unauthorized();
    const user = this.world.users.get(record.userId);
    return {
      application: { id: this.world.applicationId, name: this.world.botUsername, icon: null, description: '', bot_public: true, bot_require_code_grant: false, verify_key: '' },
      scopes: record.scope, expires: new Date(record.expiresAt).toISOString(),
      ...(user && record.scope.includes('identify') ? { user: this.world.userPayload(user) } : {}),
    };
  }

  hasToken(accessToken: string) {
    return this.tokens.has(accessToken);
  }
}
