/** Why a login link did not sign anyone in. */
export type LoginFailure = 'used' | 'expired' | 'unknown';

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

/**
 * The page a browser shows for a login link that cannot sign in: German, readable, with what to do
 * next (never a JSON error). 410 for a link that was valid once, 404 for one we never issued.
 */
export function loginFailedPage(reason: LoginFailure, owner: { guildId: string; userId: string } | null): { status: number; html: string } {
  const command = `npx dispatch-terminal login-link --guild ${escape(owner?.guildId ?? '<Guild-ID>')} --user ${escape(owner?.userId ?? '<Discord-User-ID>')}`;
  const html = `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(headline[reason])} · Dispatch Terminal</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  main { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  h1 { font-size: 1.3rem; }
  h2 { font-size: 1.05rem; margin-top: 1.5rem; }
  code { display: block; padding: .6rem .8rem; border-radius: 6px; background: #8882; overflow-wrap: anywhere; }
  a.button { display: inline-block; margin-top: 1rem; padding: .45rem .9rem; border-radius: 6px; background: #c0392b; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<main>
  <h1 id="headline">${escape(headline[reason])}</h1>
  <p>${escape(why[reason])}</p>
  <h2>So bekommst du einen neuen Link</h2>
  <ul>
    <li>Im Discord deiner Wache: Button „Login“ am Stempeluhr-Panel (wenn der Bot eingerichtet ist).</li>
    <li>Wer den Server betreibt, erstellt einen auf der Kommandozeile:<br><code>${command}</code></li>
  </ul>
  <p>Bist du in diesem Browser schon angemeldet, geht es direkt weiter:</p>
  <a class="button" href="/dispatch">Zum Leitstellen-Board</a>
</main>
</body>
</html>
`;
  return { status: reason === 'unknown' ? 404 : 410, html };
}
