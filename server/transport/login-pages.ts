/** Why a login link did not sign anyone in. */
export type LoginFailure = 'used' | 'expired' | 'unknown';

/** A page a browser shows: German, readable, with what to do next (never a JSON error). */
export interface Page { status: number; html: string }

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const headline: Record<LoginFailure, string> = {
  used: 'Dieser Login-Link wurde bereits benutzt',
  expired: 'Dieser Login-Link ist abgelaufen',
  unknown: 'Diesen Login-Link kennen wir nicht',
};

const why: Record<LoginFailure, string> = {
  used: 'Jeder Login-Link meldet genau einmal an. Wurde er schon geöffnet – von dir in einem anderen Browser, oder von einer Link-Vorschau –, ist er verbraucht.',
  expired: 'Login-Links gelten 15 Minuten ab dem Erstellen.',
  unknown: 'Prüfe, ob der Link vollständig kopiert wurde. Sonst ist er nie erstellt worden oder gehört zu einem anderen Server.',
};

/** Where "Mit Discord anmelden" starts, optionally opening `guildId` afterwards. */
export function discordLoginPath(guildId?: string | null): string {
  return guildId ? `/auth/discord?guild=${encodeURIComponent(guildId)}` : '/auth/discord';
}

const discordButton = (guildId?: string | null, label = 'Mit Discord anmelden') =>
  `<a class="button discord" id="discord-login" href="${escape(discordLoginPath(guildId))}">${escape(label)}</a>`;

/**
 * The page a browser shows for a login link that cannot sign in. 410 for a link that was valid
 * once, 404 for one we never issued. With "Login with Discord" set up it offers that first.
 */
export function loginFailedPage(reason: LoginFailure, owner: { guildId: string; userId: string } | null, opts: { discordLogin?: boolean } = {}): Page {
  const command = `npx dispatch-terminal login-link --guild ${escape(owner?.guildId ?? '<Guild-ID>')} --user ${escape(owner?.userId ?? '<Discord-User-ID>')}`;
  const discord = opts.discordLogin
    ? `<h2>Ohne neuen Link</h2>
  <p>Melde dich mit deinem Discord-Konto an – das geht in jeder Wache, in der du einen Personaleintrag hast.</p>
  <p>${discordButton(owner?.guildId)}</p>
  `
    : '';
  const body = `<p>${escape(why[reason])}</p>
  ${discord}<h2>So bekommst du einen neuen Link</h2>
  <ul>
    <li>Im Discord deiner Wache: Befehl /login oder Button „Login“ am Stempeluhr-Panel (wenn der Bot eingerichtet ist).</li>
    <li>Wer den Server betreibt, erstellt einen auf der Kommandozeile:<br><code>${command}</code></li>
  </ul>
  <p>Bist du in diesem Browser schon angemeldet, geht es direkt weiter:</p>
  <a class="button" href="/dispatch">Zum Leitstellen-Board</a>`;
  return { status: reason === 'unknown' ? 404 : 410, html: page(headline[reason], body) };
}

// ---- Login with Discord ----------------------------------------------------------------------

/** `/auth/discord` on a server without DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: what an admin sets. */
export function discordLoginOffPage(publicUrl: string): Page {
  const body = `<p>Wer den Server betreibt, richtet es so ein:</p>
  <ol>
    <li>Im <a href="https://discord.com/developers/applications">Discord Developer Portal</a> die Anwendung des Bots öffnen, unter „OAuth2“ diese Redirect-URL eintragen:<br><code>${escape(publicUrl)}/auth/discord/callback</code></li>
    <li>Client-ID und Client-Secret von dort als Umgebungsvariablen setzen und den Server neu starten:<br><code>DISCORD_CLIENT_ID=…<br>DISCORD_CLIENT_SECRET=…<br>PUBLIC_URL=${escape(publicUrl)}</code></li>
  </ol>
  <p>Bis dahin meldest du dich mit einem Login-Link an (Button „Login“ am Stempeluhr-Panel, oder von der Person, die den Server betreibt).</p>
  <a class="button" href="/dispatch">Zum Leitstellen-Board</a>`;
  return { status: 404, html: page('Anmelden mit Discord ist auf diesem Server nicht eingerichtet', body) };
}

/** `/auth/discord?guild=…` with something that is no guild id. */
export function discordLoginBadLinkPage(): Page {
  const body = `<p>Der Parameter <code class="inline">guild</code> dieses Links ist keine gültige Wachen-ID. Du kannst dich trotzdem anmelden und die Wache danach auf dem Board wählen.</p>
  <p>${discordButton(null)}</p>`;
  return { status: 400, html: page('Dieser Anmelde-Link ist fehlerhaft', body) };
}

/** The callback without a usable state: unknown, expired, used, or started in another browser. */
export function discordLoginInvalidPage(guildId: string | null): Page {
  const body = `<p>Die Anmeldung mit Discord muss innerhalb von 10 Minuten und in demselben Browser abgeschlossen werden, in dem sie begonnen wurde; jeder Anmeldevorgang gilt nur einmal. Starte sie einfach neu.</p>
  <p>${discordButton(guildId, 'Erneut mit Discord anmelden')}</p>`;
  return { status: 400, html: page('Anmeldung abgelaufen oder ungültig – bitte erneut versuchen', body) };
}

/** The user chose "Cancel" on Discord's page (error=access_denied). */
export function discordLoginCancelledPage(guildId: string | null): Page {
  const body = `<p>Du hast die Anmeldung auf der Seite von Discord abgebrochen; es wurde nichts geändert.</p>
  <p>${discordButton(guildId, 'Erneut mit Discord anmelden')}</p>
  <p><a href="/dispatch">Zum Leitstellen-Board</a></p>`;
  return { status: 403, html: page('Anmeldung abgebrochen', body) };
}

/** Discord sent another error back to the callback (its own code, shown for whoever runs the server). */
export function discordLoginRefusedPage(error: string, guildId: string | null): Page {
  const body = `<p>Discord hat die Anmeldung nicht abgeschlossen (Meldung von Discord: <b>${escape(error.slice(0, 100))}</b>). Versuche es noch einmal; bleibt es dabei, gib die Meldung an die Person weiter, die den Server betreibt.</p>
  <p>${discordButton(guildId, 'Erneut mit Discord anmelden')}</p>`;
  return { status: 400, html: page('Discord hat die Anmeldung abgelehnt', body) };
}

/** Discord signed the user in, but no guild of theirs here has them as personnel (and them in its Discord). */
export function discordNoPersonnelPage(user: { id: string; name: string }, notInDiscord: string[]): Page {
  const elsewhere = notInDiscord.length
    ? `<p>Einen Personaleintrag hast du in ${notInDiscord.map((n) => `<b>${escape(n)}</b>`).join(', ')} – dort bist du aber nicht (mehr) Mitglied des Discord-Servers der Wache. Tritt ihm wieder bei und melde dich dann erneut an.</p>`
    : '';
  const body = `<p>Angemeldet bei Discord als <b>${escape(user.name)}</b> (Discord-ID <code class="inline">${escape(user.id)}</code>).</p>
  ${elsewhere}<h2>So bekommst du einen Personaleintrag</h2>
  <ul>
    <li>Bitte die Wachleitung, dich im Personal deiner Wache anzulegen – mit deiner Discord-ID oben.</li>
    <li>Du musst außerdem Mitglied im Discord-Server der Wache sein.</li>
    <li>Danach geht es hier weiter: ${discordButton(null, 'Erneut mit Discord anmelden')}</li>
  </ul>`;
  return { status: 403, html: page('Du hast in keiner Wache dieses Servers einen Personaleintrag', body) };
}

/** Discord could not be reached, timed out, or answered with a fault (or refused this server's credentials). */
export function discordUnavailablePage(guildId: string | null, misconfigured: boolean): Page {
  const body = misconfigured
    ? `<p>Discord hat die Zugangsdaten dieses Servers abgelehnt. Wer den Server betreibt: bitte <code class="inline">DISCORD_CLIENT_ID</code> und <code class="inline">DISCORD_CLIENT_SECRET</code> prüfen, und ob im Discord Developer Portal die Redirect-URL dieses Servers eingetragen ist.</p>`
    : `<p>Discord antwortet gerade nicht. Versuche es in einer Minute noch einmal – oder melde dich mit einem Login-Link an.</p>
  <p>${discordButton(guildId, 'Erneut mit Discord anmelden')}</p>`;
  return { status: 503, html: page(misconfigured ? 'Anmelden mit Discord ist falsch eingerichtet' : 'Discord ist gerade nicht erreichbar', body) };
}

/** `/invite` on a server without a Discord client id. */
export function botOffPage(): Page {
  const body = `<p>Ohne Bot gibt es kein Stempeluhr-Panel und keine Befehle im Discord; das Leitstellen-Board funktioniert trotzdem.</p>
  <p>Wer den Server betreibt, setzt den Token des Bots aus dem <a href="https://discord.com/developers/applications">Discord Developer Portal</a> (die Client-ID steckt darin; sonst zusätzlich <code class="inline">DISCORD_CLIENT_ID</code>) und startet den Server neu:</p>
  <code>DISCORD_TOKEN=…</code>`;
  return { status: 404, html: page('Der Discord-Bot ist auf diesem Server nicht eingerichtet', body) };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)} · Dispatch Terminal</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  main { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  h1 { font-size: 1.3rem; }
  h2 { font-size: 1.05rem; margin-top: 1.5rem; }
  code { display: block; padding: .6rem .8rem; border-radius: 6px; background: #8882; overflow-wrap: anywhere; }
  code.inline { display: inline; padding: .1rem .3rem; }
  li { margin-bottom: .4rem; }
  a.button { display: inline-block; margin-top: 1rem; padding: .45rem .9rem; border-radius: 6px; background: #c0392b; color: #fff; text-decoration: none; }
  a.button.discord { background: #5865f2; margin-top: .3rem; }
</style>
</head>
<body>
<main>
  <h1 id="headline">${escape(title)}</h1>
  ${body}
</main>
</body>
</html>
`;
}
