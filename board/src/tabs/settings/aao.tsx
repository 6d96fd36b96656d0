import './aao.css';
import { useEffect } from 'preact/hooks';
import { moduleOn } from '../../app/session.ts';
import { linkAao } from './aao-state.ts';
import { AaoKeywords } from './aao-keywords.tsx';
import { AaoAvailable, AaoTypes, AaoUnitTypes } from './aao-types.tsx';
import { aaoText } from './aao-words.ts';

/**
 * Alarm- und Ausrückeordnung: the unit types, each unit's type, which statuses count as available,
 * and the keywords with what they send. Every change saves at once and reaches other boards live.
 */
export function Aao() {
  const t = aaoText();
  useEffect(() => linkAao(), []);
  const on = moduleOn('dispatch') && moduleOn('incidents');
  return (
    <section id="settings-aao" class="card aao" aria-labelledby="aao-title">
      <h2 id="aao-title">{t.title}</h2>
      {!on ? <p class="muted" id="aao-off">{t.off}</p> : (
        <>
          <p class="muted">{t.intro}</p>
          <div class="aao-cols">
            <div>
              <AaoTypes />
              <AaoAvailable />
            </div>
            <div>
              <AaoKeywords />
              <AaoUnitTypes />
            </div>
          </div>
        </>
      )}
    </section>
  );
}
