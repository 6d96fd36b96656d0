import { signal } from '@preact/signals';

export type Lang = 'de' | 'en';

/** The board's language: German first; English when chosen (kept in this browser and in the person's preferences). */
export const lang = signal<Lang>(localStorage.getItem('dt.lang') === 'en' ? 'en' : 'de');

export function setLang(next: Lang): void {
  lang.value = next;
  localStorage.setItem('dt.lang', next);
  document.documentElement.lang = next;
}

/**
 * A module's strings in both languages, the English ones of the same shape as the German ones:
 * `const text = texts({ … }, { … })`, then `text().title` in a component (which then re-renders
 * when the language changes).
 */
export function texts<T>(de: T, en: T): () => T {
  return () => (lang.value === 'en' ? en : de);
}

/** One formatter per language and kind: building one is far dearer than formatting (a board formats on every delta). */
function formatter(options: Intl.DateTimeFormatOptions) {
  const made = { de: new Intl.DateTimeFormat('de-DE', options), en: new Intl.DateTimeFormat('en-GB', options) };
  return (ms: number) => made[lang.value].format(ms);
}

/** 14:05 */
export const clockTime = formatter({ hour: '2-digit', minute: '2-digit' });

/** 24.11., 14:05 */
export const dateTime = formatter({ day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

/** The board language's locale, for Intl formatting (de-DE, en-GB). */
export const locale = () => (lang.value === 'en' ? 'en-GB' : 'de-DE');

/** A number with at most `digits` decimals, in the board's language: 12,5 / 12.5. */
export function decimal(n: number, digits = 1): string {
  return n.toLocaleString(locale(), { maximumFractionDigits: digits });
}

/** A duration as a dispatcher reads it: 45 s, 12 min, 3 h 05 min, 2 d 4 h. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return lang.value === 'en' ? `${Math.floor(h / 24)} d ${h % 24} h` : `${Math.floor(h / 24)} T ${h % 24} h`;
}
