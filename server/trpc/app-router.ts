import { router } from './init.ts';
import { healthRouter } from '../domains/health/router.ts';
import { brandingRouter } from '../domains/branding/router.ts';
import { timeclockRouter } from '../domains/timeclock/router.ts';
import { apiKeysRouter } from '../domains/apikeys/router.ts';
import { preferencesRouter } from '../domains/preferences/router.ts';
import { settingsRouter } from '../domains/settings/router.ts';
import { liveRouter, meAlarmRouter } from '../domains/live/router.ts';

export const appRouter = router({
  health: healthRouter,
  branding: brandingRouter,
  timeclock: timeclockRouter,
  apiKeys: apiKeysRouter,
  preferences: preferencesRouter,
  settings: settingsRouter,
  live: liveRouter,
  me: router({ alarm: meAlarmRouter }),
});

export type AppRouter = typeof appRouter;
