import { z } from 'zod';

const dmKinds = ['shiftReminder', 'alarm', 'promotion', 'news'] as const;

/** Known preferences and their defaults; a stored value overrides, `null` in a PUT resets to the default. */
export const defaultPrefs = {
  theme: 'system' as 'system' | 'light' | 'dark',
  density: 'comfortable' as 'comfortable' | 'compact',
  alarmSound: true,
  alarmVolume: 80,
  alarmTone: 'gong' as 'gong' | 'siren' | 'beep',
  alarmScope: 'all' as 'own' | 'all',
  language: 'de' as 'de' | 'en',
  dmUnsubscribed: [] as (typeof dmKinds)[number][],
};


export const PrefValues = z.strictObject({
  theme: z.enum(['system', 'light', 'dark']),
  density: z.enum(['comfortable', 'compact']),
  alarmSound: z.boolean(),
  alarmVolume: z.number().int().min(0).max(100),
  alarmTone: z.enum(['gong', 'siren', 'beep']),
  alarmScope: z.enum(['own', 'all']).describe('Which alarms ring on your board: only of the unit you occupy, or of every unit.'),
  language: z.enum(['de', 'en']).describe('Language of the board.'),
  dmUnsubscribed: z.array(z.enum(dmKinds)).max(dmKinds.length).describe('Direct-message kinds you do not want.'),
});

export const PutPrefs = z.strictObject({
  prefs: z.strictObject(Object.fromEntries(Object.entries(PrefValues.shape).map(([k, v]) => [k, v.nullable().optional()])) as {
    [K in keyof typeof PrefValues.shape]: z.ZodOptional<z.ZodNullable<(typeof PrefValues.shape)[K]>>
  }),
});

export const Prefs = z.object({ prefs: PrefValues });
