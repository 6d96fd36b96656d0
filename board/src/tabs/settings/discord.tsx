import { useEffect, useState } from 'preact/hooks';
import { api, httpStatusOf, messageOf } from '../../app/api.ts';
import { texts } from '../../app/i18n.ts';
import { signedOut } from '../../app/session.ts';
import '../../app/discord.css';

const text = texts({
  title: 'Discord', intro: 'Der Bot postet das Stempeluhr-Panel und bietet /apikey, /login und /panel im Discord der Wache.',
  bot: 'Bot', connected: (name: string | null) => (name ? `Verbunden als ${name}` : 'Verbunden'), disconnected: 'Nicht verbunden',
  disconnectedHint: 'Der Bot ist eingerichtet, aber gerade nicht mit Discord verbunden (Discord gestört, oder der Server startet noch). Er verbindet sich von selbst neu.',
  notSetUp: 'Nicht eingerichtet', botHint: 'Wer den Server betreibt, setzt DISCORD_TOKEN (aus dem Discord Developer Portal) und startet ihn neu.',
  login: 'Anmelden mit Discord', loginOn: 'Eingerichtet', loginHint: 'Wer den Server betreibt, setzt DISCORD_CLIENT_ID und DISCORD_CLIENT_SECRET und trägt im Developer Portal die Redirect-URL …/auth/discord/callback ein.',
  invite: 'Bot einladen', inviteHint: 'Öffnet Discord: Server wählen, Berechtigungen bestätigen.', refresh: 'Neu prüfen', loading: 'Lädt …',
}, {
  title: 'Discord', intro: 'The bot posts the time-clock panel and offers /apikey, /login and /panel in your station\'s Discord.',
  bot: 'Bot', connected: (name: string | null) => (name ? `Connected as ${name}` : 'Connected'), disconnected: 'Not connected',
  disconnectedHint: 'The bot is set up but not connected to Discord right now (Discord trouble, or the server is still starting). It reconnects by itself.',
  notSetUp: 'Not set up', botHint: 'Whoever runs the server sets DISCORD_TOKEN (from the Discord Developer Portal) and restarts it.',
  login: 'Login with Discord', loginOn: 'Set up', loginHint: 'Whoever runs the server sets DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET and adds the redirect URL …/auth/discord/callback in the Developer Portal.',
  invite: 'Invite the bot', inviteHint: 'Opens Discord: choose the server, confirm the permissions.', refresh: 'Check again', loading: 'Loading …',
});

type Status = Awaited<ReturnType<typeof api.chat.status.query>>;
/** The bot's connection is not a live topic: while the tab is open it is asked again this often. */
const POLL_MS = 15_000;

/** Whether the bot is set up and connected, the invite, and whether "Login with Discord" is on. */
export function DiscordCard() {
  const t = text();
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function load() {
    setBusy(true);
    try {
      setStatus(await api.chat.status.query());
      setError(null);
    } catch (err) {
      if (httpStatusOf(err) === 401) signedOut('expired');
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, []);
  const bot = !status ? null : !status.enabled ? 'off' : status.connected ? 'on' : 'down';
  return (
    <section id="settings-discord" class="card" aria-labelledby="discord-title" aria-busy={busy}>
      <h2 id="discord-title">{t.title}</h2>
      <p class="muted">{t.intro}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {!status && !error && <p class="muted">{t.loading}</p>}
      {status && (
        <>
          <dl>
            <dt>{t.bot}</dt>
            <dd id="discord-bot" class={`state ${bot === 'on' ? 'on' : 'off'}`} data-state={bot}>
              {bot === 'on' ? t.connected(status.botName) : bot === 'down' ? t.disconnected : t.notSetUp}
            </dd>
            <dt>{t.login}</dt>
            <dd id="discord-login-state" class={`state ${status.loginWithDiscord ? 'on' : 'off'}`}>{status.loginWithDiscord ? t.loginOn : t.notSetUp}</dd>
          </dl>
          {bot === 'off' && <p class="muted" id="discord-bot-hint">{t.botHint}</p>}
          {bot === 'down' && <p class="muted" id="discord-bot-hint">{t.disconnectedHint}</p>}
          {!status.loginWithDiscord && <p class="muted" id="discord-login-hint">{t.loginHint}</p>}
          <div class="actions">
            {/* Inviting a bot this server does not run would add a silent app to the Discord server. */}
            {status.enabled && status.inviteUrl && (
              <a id="discord-invite" class="button discord" href="/invite" target="_blank" rel="noopener" title={t.inviteHint}>{t.invite}</a>
            )}
            <button id="discord-refresh" type="button" disabled={busy} onClick={() => void load()}>{t.refresh}</button>
          </div>
        </>
      )}
    </section>
  );
}
