import { useEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';
import { lang, setLang, texts } from './i18n.ts';
import { access, branding, guild, guilds, logout, notice, openGuild, phase, prefs, savePrefs, signedOutReason } from './session.ts';
import { applyTheme, nextTheme, theme } from './theme.ts';
import { connection, live } from '../live/board-live.ts';
import { tabLabels, visibleTabs, type TabId } from '../tabs/registry.ts';
import { AlarmBanner } from '../alarm/banner.tsx';
import { DiscordLogin } from './discord-login.tsx';

const text = texts({
  switchGuild: 'Wache wechseln', logout: 'Abmelden', theme: { system: 'Farben wie das System', dark: 'Dunkle Farben', light: 'Helle Farben' }, language: 'EN: zu Englisch wechseln', langShort: 'EN',
  connection: { connecting: 'Verbinde …', live: 'Live', reconnecting: 'Verbindung unterbrochen – verbinde neu …', degraded: 'Server ohne Datenbank – Anzeige evtl. veraltet', ended: 'Live-Ansicht beendet – bitte neu laden' },
  signedOut: 'Nicht angemeldet', signedOutReason: { none: 'Du bist in diesem Browser nicht angemeldet.', expired: 'Deine Anmeldung ist abgelaufen.', loggedOut: 'Du hast dich abgemeldet.' },
  howToSignIn: 'Öffne einen Login-Link, um dich anzumelden. Einen neuen Link bekommst du im Discord deiner Wache mit /login oder über den Button „Login“ am Stempeluhr-Panel (wenn der Bot eingerichtet ist), oder von der Person, die den Server betreibt:',
  choose: 'Wähle deine Wache', chooseHint: 'Du bist Mitglied in mehreren Wachen. Wechseln kannst du später oben in der Kopfzeile.',
  noGuild: 'Keine Wache', noGuildText: 'Du bist angemeldet, aber in keiner Wache (mehr) Mitglied. Frag die Wachleitung, dich aufzunehmen.',
  notMember: 'Der Link gehört zu einer Wache, in der du nicht Mitglied bist.', unreachable: 'Der Server ist gerade nicht erreichbar. Lade die Seite gleich noch einmal.',
  admin: 'Admin', loading: 'Lädt …', sections: 'Bereiche',
}, {
  switchGuild: 'Switch station', logout: 'Sign out', theme: { system: 'Colours like the system', dark: 'Dark colours', light: 'Light colours' }, language: 'DE: switch to German', langShort: 'DE',
  connection: { connecting: 'Connecting …', live: 'Live', reconnecting: 'Connection lost – reconnecting …', degraded: 'Server without database – view may be stale', ended: 'Live view ended – please reload' },
  signedOut: 'Not signed in', signedOutReason: { none: 'You are not signed in in this browser.', expired: 'Your sign-in has expired.', loggedOut: 'You signed out.' },
  howToSignIn: 'Open a login link to sign in. You get a new one in your station\'s Discord with /login or the “Login” button on the time-clock panel (when the bot is set up), or from whoever runs the server:',
  choose: 'Choose your station', chooseHint: 'You are a member of several stations. You can switch later in the header.',
  noGuild: 'No station', noGuildText: 'You are signed in but no longer a member of any station. Ask your station\'s lead to add you.',
  notMember: 'The link belongs to a station you are not a member of.', unreachable: 'The server cannot be reached right now. Reload the page in a moment.',
  admin: 'Admin', loading: 'Loading …', sections: 'Sections',
});

/** The open tab, kept in the address (`#units`), so a reload or a bookmark opens the same section. */
export const currentTab = signal<TabId>((location.hash.slice(1) as TabId) || 'overview');
export function showTab(id: TabId): void {
  currentTab.value = id;
  history.replaceState(null, '', `${location.pathname}${location.search}#${id}`);
}

function Header() {
  const t = text();
  const g = guild.value;
  const b = branding.value;
  const toggleLang = () => {
    const next = lang.value === 'de' ? 'en' : 'de';
    setLang(next);
    if (g) void savePrefs({ language: next }).catch(() => {});
  };
  const toggleTheme = () => {
    const next = nextTheme(theme.value);
    applyTheme(next);
    if (g && prefs.value) void savePrefs({ theme: next }).catch(() => {});
  };
  return (
    <header class="top">
      <img id="icon" alt="" src={b?.iconUrl} hidden={!b} />
      <h1 id="guild-name">{g?.name ?? 'Dispatch Terminal'}</h1>
      {g && guilds.value.length > 1 && (
        <select id="guild-select" aria-label={t.switchGuild} value={g.guildId} onChange={(e) => openGuild((e.target as HTMLSelectElement).value)}>
          {guilds.value.map((x) => <option value={x.guildId}>{x.name}</option>)}
        </select>
      )}
      {phase.value === 'board' && (
        <span id="connection" class={`conn conn-${connection.value}`} role="status" aria-live="polite">
          <span class="dot" aria-hidden="true" />{t.connection[connection.value]}
        </span>
      )}
      <span class="account">
        <button id="theme" type="button" aria-label={t.theme[theme.value]} title={t.theme[theme.value]} onClick={toggleTheme}>
          {theme.value === 'dark' ? '☾' : theme.value === 'light' ? '☀' : '◐'}
        </button>
        {/* the name starts with what the button shows (speech input: "click EN") */}
        <button id="lang" type="button" aria-label={t.language} title={t.language} onClick={toggleLang}>{t.langShort}</button>
        <span id="who">{g?.nickname ?? ''}</span>
        {phase.value !== 'signedOut' && phase.value !== 'loading' && <button id="logout" type="button" onClick={() => void logout()}>{t.logout}</button>}
      </span>
    </header>
  );
}

/** The number of open calls on the calls tab, so a new call is seen from every tab. */
function CallCount() {
  const n = live.calls.keys.value.length;
  return n ? <span class="pill tab-count" aria-label={`(${n})`}>{n}</span> : null;
}

/**
 * Scrolls the tab strip (only it, never the page) so the open tab is fully in view, with a bit of
 * its neighbours showing that the strip goes on: on a phone 11 tabs are three screens wide.
 */
function revealTab(strip: HTMLElement | null, id: string): void {
  const tab = strip && document.getElementById(id);
  if (!strip || !tab) return;
  const margin = Math.min(40, strip.clientWidth / 6);
  const left = tab.offsetLeft; // the strip is the tabs' offset parent (position: relative): unaffected by its scroll
  const right = left + tab.offsetWidth;
  const target = left - margin < strip.scrollLeft ? left - margin
    : right + margin > strip.scrollLeft + strip.clientWidth ? right + margin - strip.clientWidth : null;
  if (target !== null) strip.scrollTo({ left: Math.max(0, target), behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
}

function Tabs() {
  const tabs = visibleTabs();
  const labels = tabLabels();
  const active = tabs.some((x) => x.id === currentTab.value) ? currentTab.value : 'overview';
  const Active = tabs.find((x) => x.id === active)!.Component;
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = tabs.findIndex((x) => x.id === active);
    const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    showTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };
  const strip = useRef<HTMLDivElement>(null);
  useEffect(() => revealTab(strip.current, `tab-${active}`), [active]);
  return (
    <>
      <nav class="tabs" aria-label={text().sections}>
        <div class="tablist" role="tablist" aria-label={text().sections} ref={strip} onKeyDown={onKey}>
          {tabs.map((x) => (
            <button id={`tab-${x.id}`} type="button" role="tab" aria-selected={x.id === active} aria-controls="panel"
              tabIndex={x.id === active ? 0 : -1} class={x.id === active ? 'tab active' : 'tab'} onClick={() => showTab(x.id)}
              onPointerEnter={() => void x.Component.load?.().catch(() => {})} onFocus={() => void x.Component.load?.().catch(() => {})}>
              <span class="tab-label" data-text={labels[x.id]}>{labels[x.id]}</span>
              {x.id === 'calls' && <CallCount />}
            </button>
          ))}
        </div>
      </nav>
      <div id="panel" role="tabpanel" aria-labelledby={`tab-${active}`} class={`panel panel-${active}`}>
        <Active />
      </div>
    </>
  );
}

function Chooser() {
  const t = text();
  return (
    <section id="choose" class="card narrow">
      <h2>{t.choose}</h2>
      <p class="muted">{t.chooseHint}</p>
      <ul class="guilds" id="guild-list">
        {guilds.value.map((g) => <li><button type="button" onClick={() => openGuild(g.guildId)}>{g.isAdmin ? `${g.name} (${t.admin})` : g.name}</button></li>)}
      </ul>
    </section>
  );
}

export function Shell() {
  const t = text();
  useEffect(() => {
    const onHash = () => location.hash && (currentTab.value = location.hash.slice(1) as TabId);
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const p = phase.value;
  return (
    <>
      <Header />
      <main id="main">
      {notice.value && <p id="notice" class="notice error" role="alert">{t.notMember}</p>}
      {p === 'board' && <AlarmBanner />}
      {p === 'loading' && <p class="muted narrow">{t.loading}</p>}
      {p === 'unreachable' && <p id="notice" class="notice error" role="alert">{t.unreachable}</p>}
      {p === 'signedOut' && (
        <section id="signed-out" class="card narrow">
          <h2>{t.signedOut}</h2>
          <p id="signed-out-reason">{t.signedOutReason[signedOutReason.value]}</p>
          <DiscordLogin />
          <p>{t.howToSignIn}</p>
          <code>npx dispatch-terminal login-link --guild &lt;Guild-ID&gt; --user &lt;Discord-User-ID&gt;</code>
        </section>
      )}
      {p === 'choose' && <Chooser />}
      {p === 'noGuild' && (
        <section id="no-guild" class="card narrow"><h2>{t.noGuild}</h2><p>{t.noGuildText}</p></section>
      )}
      {p === 'board' && access.value && <Tabs />}
      {p === 'board' && !access.value && <p class="muted narrow">{t.loading}</p>}
      </main>
    </>
  );
}
