import { router } from './init.ts';
import { healthRouter } from '../domains/health/router.ts';
import { brandingRouter } from '../domains/branding/router.ts';
import { timeclockRouter } from '../domains/timeclock/router.ts';
import { apiKeysRouter } from '../domains/apikeys/router.ts';
import { preferencesRouter } from '../domains/preferences/router.ts';
import { settingsRouter } from '../domains/settings/router.ts';
import { liveRouter, meAlarmRouter } from '../domains/live/router.ts';
import { unitsRouter } from '../domains/units/router.ts';
import { dispatchRouter } from '../domains/dispatch/router.ts';
import { callsRouter } from '../domains/calls/router.ts';
import { incidentsRouter } from '../domains/incidents/router.ts';
import { alarmSettingsRouter } from '../domains/incidents/settings.ts';
import { ingameAlarmsRouter } from '../domains/incidents/ingame-alarms.ts';
import { aaoRouter } from '../domains/aao/router.ts';
import { personnelRouter } from '../domains/personnel/router.ts';
import { accessRouter } from '../domains/access/router.ts';
import { ranksRouter } from '../domains/ranks/router.ts';
import { docsRouter } from '../domains/docs/router.ts';
import { boardRouter } from '../domains/board/router.ts';
import { chatRouter } from '../domains/chat/router.ts';
import { emojisRouter } from '../domains/emojis/router.ts';
import { clockSettingsRouter, statsRouter } from '../domains/stats/router.ts';
import { onboardingRouter } from '../domains/onboarding/router.ts';
import { letterheadsRouter } from '../domains/letterheads/router.ts';
import { uploadsRouter } from '../domains/uploads/router.ts';
import { medicRouter } from '../domains/medic/router.ts';
import { mapRouter } from '../domains/map/router.ts';
import { positionsRouter } from '../domains/positions/router.ts';

export const appRouter = router({
  health: healthRouter,
  branding: brandingRouter,
  timeclock: timeclockRouter,
  apiKeys: apiKeysRouter,
  preferences: preferencesRouter,
  settings: settingsRouter,
  live: liveRouter,
  units: unitsRouter,
  positions: positionsRouter,
  dispatch: dispatchRouter,
  calls: callsRouter,
  incidents: incidentsRouter,
  personnel: personnelRouter,
  access: accessRouter,
  ranks: ranksRouter,
  docs: docsRouter,
  board: boardRouter,
  chat: chatRouter,
  emojis: emojisRouter,
  stats: statsRouter,
  clockSettings: clockSettingsRouter,
  alarmSettings: alarmSettingsRouter,
  ingameAlarms: ingameAlarmsRouter,
  aao: aaoRouter,
  onboarding: onboardingRouter,
  letterheads: letterheadsRouter,
  uploads: uploadsRouter,
  medic: medicRouter,
  map: mapRouter,
  me: router({ alarm: meAlarmRouter }),
});

export type AppRouter = typeof appRouter;
