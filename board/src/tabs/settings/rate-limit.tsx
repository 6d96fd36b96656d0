import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { useFollowedSetting } from '../../ui/followed-setting.ts';
import { texts } from '../../app/i18n.ts';
import { Result, useAction } from '../../ui/action.tsx';

const text = texts({
  title: 'Meldungs-Limit', intro: 'Wie viele Meldungen aus dem Spiel ein Schlüssel senden darf (Token-Bucket): im Schnitt pro Minute, und so viele auf einmal.',
  perMinute: 'Pro Minute (1–6000)', burst: 'Auf einmal (1–1000)', save: 'Speichern', isDefault: 'Standardwert', own: 'Eigener Wert',
  saved: (m: number, b: number) => `Gespeichert: ${m} pro Minute, ${b} auf einmal.`, loading: 'Lädt …',
}, {
  title: 'Call rate limit', intro: 'How many calls from the game one key may report (token bucket): on average per minute, and this many at once.',
  perMinute: 'Per minute (1–6000)', burst: 'At once (1–1000)', save: 'Save', isDefault: 'Default', own: 'Own value',
  saved: (m: number, b: number) => `Saved: ${m} a minute, ${b} at once.`, loading: 'Loading …',
});

/** An empty field is sent as it is (NaN), so the server's own message says what is missing. */
const num = (v: string) => (v.trim() === '' ? NaN : Number(v));

/** The per-key rate of call reports; follows a change made elsewhere unless this form is being edited. */
export function RateLimit() {
  const t = text();
  const { value: limit, setValue: setLimit, loadError } = useFollowedSetting(() => api.calls.rateLimit.query(), (op) => op.op === 'callRateLimit');
  const [form, setForm] = useState<{ perMinute: string; burst: string } | null>(null);
  const action = useAction();
  const shown = form ?? (limit ? { perMinute: String(limit.perMinute), burst: String(limit.burst) } : { perMinute: '', burst: '' });
  const submit = async (e: Event) => {
    e.preventDefault();
    const saved = await action.run(() => api.calls.setRateLimit.mutate({ perMinute: num(shown.perMinute), burst: num(shown.burst) }),
      (r) => t.saved(r.perMinute, r.burst));
    if (!saved) return;
    setLimit(saved);
    setForm(null);
  };
  return (
    <section id="settings-rate" class="card" aria-labelledby="rate-title">
      <h2 id="rate-title">{t.title} {limit && <span id="rate-default" class="pill">{limit.isDefault ? t.isDefault : t.own}</span>}</h2>
      <p class="muted">{t.intro}</p>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {!limit && !loadError ? <p class="muted">{t.loading}</p> : (
        <form id="rate-form" onSubmit={submit} noValidate>
          <div class="row rate-fields">
            <label>{t.perMinute}<input id="rate-per-minute" class="num" type="number" inputMode="numeric" value={shown.perMinute}
              onInput={(e) => setForm({ ...shown, perMinute: (e.target as HTMLInputElement).value })} /></label>
            <label>{t.burst}<input id="rate-burst" class="num" type="number" inputMode="numeric" value={shown.burst}
              onInput={(e) => setForm({ ...shown, burst: (e.target as HTMLInputElement).value })} /></label>
            <button id="rate-save" type="submit" class="primary" disabled={action.busy}>{t.save}</button>
          </div>
          <Result id="rate-result" action={action} />
        </form>
      )}
    </section>
  );
}
