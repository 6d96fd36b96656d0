import { useEffect, useState } from 'preact/hooks';
import { texts } from '../../app/i18n.ts';

const text = texts({
  title: 'Reihenfolge der Reiter', up: 'nach oben', down: 'nach unten', save: 'Reihenfolge speichern',
  groups: { dispatch: 'Leitstelle', timeclock: 'Stempeluhr', incidents: 'Einsätze', personnel: 'Personal', stats: 'Statistik', documents: 'Dokumente', medic: 'Medic', settings: 'Einstellungen' } as Record<string, string>,
}, {
  title: 'Tab order', up: 'up', down: 'down', save: 'Save order',
  groups: { dispatch: 'Dispatch', timeclock: 'Time clock', incidents: 'Incidents', personnel: 'Personnel', stats: 'Statistics', documents: 'Documents', medic: 'Medic', settings: 'Settings' } as Record<string, string>,
});

/** The guild's tab order (server's tab names), moved one step at a time; saved as a whole. */
export function TabOrder({ order, busy, onSave }: { order: string[]; busy: boolean; onSave: (order: string[]) => void }) {
  const t = text();
  const [list, setList] = useState(order);
  useEffect(() => setList(order), [order.join()]);
  const move = (i: number, by: -1 | 1) => {
    const next = [...list];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setList(next);
  };
  return (
    <div id="branding-tabs">
      <h3>{t.title}</h3>
      <ol class="tab-order">
        {list.map((tab, i) => (
          <li data-tab={tab}>
            <span>{t.groups[tab] ?? tab}</span>
            <button type="button" aria-label={`${t.groups[tab] ?? tab} ${t.up}`} disabled={busy || i === 0} onClick={() => move(i, -1)}>↑</button>
            <button type="button" aria-label={`${t.groups[tab] ?? tab} ${t.down}`} disabled={busy || i === list.length - 1} onClick={() => move(i, 1)}>↓</button>
          </li>
        ))}
      </ol>
      <button id="branding-tabs-save" type="button" disabled={busy || list.join() === order.join()} onClick={() => onSave(list)}>{t.save}</button>
    </div>
  );
}
