/** The languages charts are drawn in: the board's two. German is the default (Discord, public links). */
export type ChartLang = 'de' | 'en';

/** The words the drawing itself adds (the caller's spec brings titles and labels in its language). */
export const chartWords = {
  de: { empty: 'Keine Daten im Zeitraum', more: (n: number) => `+ ${n} weitere`, others: 'Andere' },
  en: { empty: 'No data in this period', more: (n: number) => `+ ${n} more`, others: 'Others' },
} as const satisfies Record<ChartLang, unknown>;
