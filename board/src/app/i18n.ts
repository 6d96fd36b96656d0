import { signal } from '@preact/signals';

export type Lang = 'de' | 'en';

/** The board's language: German first; English when chosen (kept in this browser and in the person's preferences). */
export const lang = signal<Lang>(storedLang());

/** The language kept in this browser; German where there is no storage (tests that load board words in Node). */
function storedLang(): Lang {
  return typeof localStorage !== 'undefined' && localStorage.getItem('dt.lang') === 'en' ? 'en' : 'de';
}

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

/** The Intl locale of each board language. */
export const locales = { de: 'de-DE', en: 'en-GB' } as const;

/** The board language's locale, for Intl formatting (de-DE, en-GB). */
export const locale = () => locales[lang.value];

/** One formatter per language and kind: building one is far dearer than formatting (a board formats on every delta). */
function formatter(options: Intl.DateTimeFormatOptions) {
  const made = { de: new Intl.DateTimeFormat(locales.de, options), en: new Intl.DateTimeFormat(locales.en, options) };
  return (ms: number) => made[lang.value].format(ms);
}

/** 14:05 */
export const clockTime = formatter({ hour: '2-digit', minute: '2-digit' });

/** 14:05:30 */
export const clockTimeSeconds = formatter({ hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** 24.11., 14:05 */
export const dateTime = formatter({ day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

/** Montag, 24. November 2025 */
export const longDate = formatter({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

const sameDay = (ms: number) => new Date(ms).toDateString() === new Date().toDateString();

/** 14:05 today, 24.11., 14:05 otherwise. */
export const when = (ms: number) => (sameDay(ms) ? clockTime(ms) : dateTime(ms));

/** Number formatters by language and digits, made on first use (as `formatter`, one per kind). */
const decimals = new Map<string, Intl.NumberFormat>();

/** A number with at most `digits` decimals, in the board's language (or `language`): 12,5 / 12.5. */
export function decimal(n: number, digits = 1, language: Lang = lang.value): string {
  const key = `${language} ${digits}`;
  let made = decimals.get(key);
  if (!made) decimals.set(key, (made = new Intl.NumberFormat(locales[language], { maximumFractionDigits: digits })));
  return made.format(n);
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
