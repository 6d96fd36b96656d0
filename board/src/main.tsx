import { render } from 'preact';
import './styles.css';
import { lang } from './app/i18n.ts';
import { start } from './app/session.ts';
import { linkLive } from './app/live-link.ts';
import { linkCatalogue } from './app/catalogue.ts';
import { linkCallArrivals } from './tabs/calls/arrivals.ts';
import { linkIncidents } from './tabs/incidents/store.ts';
import { Shell } from './app/shell.tsx';
import { lazy } from './ui/lazy.tsx';
import { connection, counters, live } from './live/board-live.ts';
import { played, ringing } from './alarm/audio.ts';

/** Set by server/build.mjs: true only in the test build (dist/board-test), so the production board has no hook. */
declare const DT_TEST_HOOKS: boolean;

document.documentElement.lang = lang.value;
/** For tests and the benchmark: the live stores and counters of this board. */
if (DT_TEST_HOOKS) (window as unknown as { dtBoard: unknown }).dtBoard = { live, counters, connection, audio: played, ringing };

/** The alarm kiosk (/dispatch/alarm) is a chunk of its own: the board does not load it. */
const Kiosk = lazy(() => import('./alarm/kiosk.tsx').then((m) => m.Kiosk));
const kiosk = location.pathname.replace(/\/$/, '') === '/dispatch/alarm';
linkLive();
linkCatalogue();
if (!kiosk) {
  // New calls chime and incident sheets follow their notices whichever tab is open.
  linkCallArrivals();
  linkIncidents();
}
render(kiosk ? <Kiosk /> : <Shell />, document.getElementById('app')!);
void start();
