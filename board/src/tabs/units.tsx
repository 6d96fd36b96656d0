import { useEffect, useRef, useState } from 'preact/hooks';
import { can } from '../app/session.ts';
import { connection, live, watching } from '../live/board-live.ts';
import { useAction } from '../ui/action.tsx';
import { UnitDetail, type Run } from './units/detail.tsx';
import { UnitGrid } from './units/grid.tsx';
import { OwnUnit } from './units/own-unit.tsx';
import { crewText } from './units/crew-text.ts';
import { filtering, matchCount, putStatus, selected } from './units/state.ts';
import { text } from './units/text.ts';
import { Toolbar } from './units/toolbar.tsx';
import './units/units.css';

/** What the grid shows when it shows no tile. */
function Empty() {
  const t = text();
  if (!live.units.keys.value.length) return <p class="muted empty-note">{t.noUnits}</p>;
  return filtering.value && matchCount.value === 0 ? <p class="muted empty-note">{t.noMatch}</p> : null;
}

/**
 * The fleet: toolbar, tiles, and the chosen unit's panel. Digits set the chosen unit's status from
 * anywhere in the tab (not while typing in a field); the outcome shows in the panel.
 */
function Fleet() {
  const t = text();
  const action = useAction();
  const root = useRef<HTMLDivElement>(null);
  const latest = useRef(action);
  latest.current = action;
  // The unit the last action was for: its outcome shows only in that unit's panel.
  const [target, setTarget] = useState<string | null>(null);
  const run: Run = (fn, ok) => {
    setTarget(selected.peek());
    return latest.current.run(fn, ok);
  };
  const setStatus = (callsign: string, code: string) => void run(() => putStatus(callsign, code), (r) => t.statusSet(r.callsign, r.status, r.statusLabel));
  const setRef = useRef(setStatus);
  setRef.current = setStatus;

  useEffect(() => selected.subscribe(() => latest.current.clear()), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement;
      if (target !== document.body && !root.current?.contains(target)) return;
      const editing = !!target.closest('input, textarea, select, [contenteditable="true"]');
      if (editing) return;
      if (e.key === '/') {
        e.preventDefault();
        document.getElementById('unit-search')?.focus();
      } else if (e.key === 'Escape' && selected.peek()) {
        selected.value = null;
        document.getElementById('unit-grid')?.focus();
      } else if (/^[0-9]$/.test(e.key) && selected.peek() && !e.repeat) {
        e.preventDefault();
        setRef.current(selected.peek()!, e.key);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div class="units-tab" ref={root}>
      <Toolbar />
      <div class="units-layout">
        <div class="units-main"><UnitGrid /><Empty /></div>
        <UnitDetail action={action} resultFor={target} run={run} setStatus={setStatus} />
      </div>
    </div>
  );
}

/** Einheiten: the fleet for ranks that may watch it; otherwise the person's own unit ("Mein Fahrzeug"). */
export function UnitsTab() {
  const t = text();
  if (watching.value.includes('units')) return <Fleet />;
  if (connection.value === 'connecting' && can('dispatch.view')) return <p class="muted">{t.loading}</p>;
  // A crew: "Mein Fahrzeug"; the fleet is for ranks that may see it, said in words.
  return (
    <div class="crew-units">
      {can('timeclock.own.use') ? <OwnUnit /> : (
        <section class="card" aria-labelledby="units-title">
          <h2 id="units-title">{t.title}</h2>
          <p id="own-no-right">{crewText().noRight}</p>
        </section>
      )}
      <p id="units-no-right" class="muted">{t.noRight}</p>
    </div>
  );
}
