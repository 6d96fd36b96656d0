import { batch, computed, signal } from '@preact/signals';
import { api, useGuild } from './api.ts';
import { lang, setLang } from './i18n.ts';
import { applyTheme } from './theme.ts';
import type { Access, Branding, Prefs, UserGuild } from './types.ts';

/**
 * Who is signed in and where. The board signs in with the HttpOnly session cookie that a login
 * link set (it never sees a key); `GET /auth/session` lists the user's guilds, and `x-guild-id`
 * selects one of them.
 */
export type Phase = 'loading' | 'signedOut' | 'choose' | 'noGuild' | 'board' | 'unreachable';
export type SignedOutReason = 'none' | 'expired' | 'loggedOut';

export const phase = signal<Phase>('loading');
export const signedOutReason = signal<SignedOutReason>('none');
/** A one-line notice above the board (for example: the link's guild is not one of yours). */
export const notice = signal<'notMember' | null>(null);
export const guilds = signal<UserGuild[]>([]);
export const guild = signal<UserGuild | null>(null);
export const access = signal<Access | null>(null);
export const branding = signal<Branding | null>(null);
export const prefs = signal<Prefs | null>(null);

/** Rank capabilities decide what is shown (guild admins have all of them). */
export function can(capability: string): boolean {
  const a = access.value;
  return !!a && (a.isAdmin || a.capabilities.includes(capability));
}
export const modules = computed(() => access.value?.modules ?? branding.value?.modules ?? {});
export function moduleOn(name: string): boolean {
  return (modules.value as Record<string, boolean>)[name] !== false;
}

export async function start(): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/auth/session', { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    phase.value = 'unreachable';
    return;
  }
  if (res.status === 401) return signedOut('none');
  if (!res.ok) {
    phase.value = 'unreachable';
    return;
  }
  const session = (await res.json()) as { guilds: UserGuild[] };
  guilds.value = session.guilds;
  if (!session.guilds.length) {
    phase.value = 'noGuild';
    return;
  }
  const isMember = (id: string | null) => !!id && session.guilds.some((g) => g.guildId === id);
  const wanted = new URLSearchParams(location.search).get('guild');
  const remembered = localStorage.getItem('dt.guild');
  if (wanted && !isMember(wanted)) notice.value = 'notMember';
  const chosen = isMember(wanted) ? wanted : isMember(remembered) ? remembered : session.guilds.length === 1 ? session.guilds[0].guildId : null;
  if (chosen) openGuild(chosen);
  else phase.value = 'choose';
}

export function openGuild(guildId: string): void {
  const next = guilds.value.find((g) => g.guildId === guildId);
  if (!next) return;
  localStorage.setItem('dt.guild', guildId);
  const url = new URL(location.href);
  url.searchParams.set('guild', guildId);
  history.replaceState(null, '', url);
  useGuild(guildId);
  batch(() => {
    guild.value = next;
    access.value = null;
    branding.value = null;
    prefs.value = null;
    phase.value = 'board';
  });
  document.title = `${next.name} · Dispatch Terminal`;
  void loadGuild(guildId);
}

/** Access, branding and preferences of the open guild; access again whenever the server says rights changed. */
async function loadGuild(guildId: string): Promise<void> {
  const [a, b, p] = await Promise.allSettled([
    api.access.status.query(), api.branding.get.query({ guildId }), api.preferences.get.query(),
  ]);
  if (guild.value?.guildId !== guildId) return;
  batch(() => {
    if (a.status === 'fulfilled') access.value = a.value;
    if (b.status === 'fulfilled') branding.value = b.value;
    if (p.status === 'fulfilled') {
      prefs.value = p.value.prefs;
      if (!localStorage.getItem('dt.lang') && p.value.prefs.language !== lang.value) setLang(p.value.prefs.language);
      applyTheme(p.value.prefs.theme);
    }
  });
  if (b.status === 'fulfilled') document.documentElement.style.setProperty('--accent', b.value.color);
  if (a.status === 'rejected' && (a.reason as { data?: { httpStatus?: number } }).data?.httpStatus === 401) signedOut('expired');
}

export async function reloadAccess(): Promise<void> {
  const guildId = guild.value?.guildId;
  try {
    const a = await api.access.status.query();
    if (guild.value?.guildId === guildId) access.value = a;
  } catch {
    // the next change notice or reconnect tries again
  }
}

export async function savePrefs(change: Partial<Prefs>): Promise<void> {
  const saved = await api.preferences.set.mutate({ prefs: change });
  prefs.value = saved.prefs;
}

export function signedOut(reason: SignedOutReason): void {
  batch(() => {
    signedOutReason.value = reason;
    guild.value = null;
    access.value = null;
    phase.value = 'signedOut';
  });
  document.title = 'Dispatch Terminal';
}

export async function logout(): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => null);
  signedOut('loggedOut');
}
