import { useEffect } from 'preact/hooks';
import { access, can } from '../app/session.ts';
import { CoverageView } from './stats/heatmap.tsx';
import { EinsatzView } from './stats/einsatz.tsx';
import { LeaderboardView } from './stats/leaderboard.tsx';
import { LinksView } from './stats/links.tsx';
import { linkStatsLive } from './stats/load.ts';
import { PeriodBar } from './stats/period-bar.tsx';
import { PersonView } from './stats/person.tsx';
import { openPerson, section } from './stats/state.ts';
import { statsText, type Section } from './stats/words.ts';
import './stats/stats.css';

/**
 * The sections this person may see. stats.leaderboard.view opens the leaderboard, coverage,
 * incident figures and chart links (the server checks each again); timeclock.own.use their own
 * statistics — all a crew member without the leaderboard right sees here.
 */
export function statsSections(): Section[] {
  const all = can('stats.leaderboard.view');
  const own = can('timeclock.own.use');
  return [...(all ? ['board' as const] : []), ...(own ? ['me' as const] : []), ...(all ? ['coverage', 'incidents', 'links'] as const : [])];
}

/**
 * Statistik: who served how long (the leaderboard, a person's statistics), one's own statistics,
 * coverage with understaffing, incident figures and public chart links — one period for all of
 * them, kept current while someone clocks in or out (throttled, load.ts).
 */
export function StatsTab() {
  const t = statsText();
  useEffect(() => linkStatsLive(), []);
  const sections = statsSections();
  const active = sections.includes(section.value) ? section.value : sections[0];
  const me = access.value?.userId;
  const person = active === 'board' ? openPerson.value : null;
  const pick = (s: Section) => {
    section.value = s;
    if (s === 'board') openPerson.value = null;
  };
  return (
    <div class="stats">
      {sections.length > 1 && (
        <nav class="stats-sections" aria-label={t.sectionsLabel}>
          {sections.map((s) => (
            <button type="button" id={`stats-${s}`} class={s === active ? 'sec active' : 'sec'} aria-current={s === active ? 'page' : undefined} onClick={() => pick(s)}>
              {t.sections[s]}
            </button>
          ))}
        </nav>
      )}
      <PeriodBar filters={(active === 'board' && !person) || active === 'coverage' || active === 'links'} rows={(active === 'board' && !person) || active === 'links'} />
      {active === 'board' && (person ? <PersonView key={person} userId={person} mine={false} /> : <LeaderboardView />)}
      {active === 'me' && me && <PersonView key="me" userId={me} mine />}
      {active === 'coverage' && <CoverageView />}
      {active === 'incidents' && <EinsatzView />}
      {active === 'links' && <LinksView />}
    </div>
  );
}
