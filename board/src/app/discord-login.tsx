import { useEffect } from 'preact/hooks';
import { signal } from '@preact/signals';
import './discord.css';
import { texts } from './i18n.ts';

const text = texts({
  button: 'Mit Discord anmelden', hint: 'Mit deinem Discord-Konto – in jeder Wache, in der du einen Personaleintrag hast.', or: 'Oder:',
}, {
  button: 'Sign in with Discord', hint: 'With your Discord account – in every station where you have a personnel entry.', or: 'Or:',
});

/** Whether the server offers "Login with Discord" (null: not asked yet, or it could not say). */
const offered = signal<boolean | null>(null);

async function ask(): Promise<void> {
  try {
    const res = await fetch('/auth/discord/status', { cache: 'no-store' });
    if (res.ok) offered.value = ((await res.json()) as { loginWithDiscord: boolean }).loginWithDiscord;
  } catch {
    // no button: the login-link way below still works
  }
}

/**
 * "Mit Discord anmelden" on the signed-out screen, when the server has it set up. The guild the
 * address names (`?guild=`) is opened after the sign-in, if the person may.
 */
export function DiscordLogin() {
  const t = text();
  useEffect(() => {
    if (offered.value === null) void ask();
  }, []);
  if (!offered.value) return null;
  const guild = new URLSearchParams(location.search).get('guild');
  const href = guild ? `/auth/discord?guild=${encodeURIComponent(guild)}` : '/auth/discord';
  return (
    <div class="discord-login">
      <a id="discord-login" class="button discord" href={href}>{t.button}</a>
      <p class="muted">{t.hint}</p>
      <p class="or">{t.or}</p>
    </div>
  );
}
