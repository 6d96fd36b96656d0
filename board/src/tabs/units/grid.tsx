import { memo } from 'preact/compat';
import { useRef } from 'preact/hooks';
import { useSignalEffect } from '@preact/signals';
import { live } from '../../live/board-live.ts';
import { byCallsign, compact, selected, tileId } from './state.ts';
import { UnitTile } from './tile.tsx';
import { text } from './text.ts';

/** The tiles on screen, in order (the filter leaves out the ones that do not match). */
function tilesIn(list: HTMLElement): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>('[role=option]'));
}

/** The tile `key` leads to from `from` in a grid laid out by CSS (columns counted from the first row). */
function step(tiles: HTMLElement[], from: number, key: string): number {
  const columns = Math.max(1, tiles.filter((el) => el.offsetTop === tiles[0].offsetTop).length);
  const last = tiles.length - 1;
  if (from < 0) return key === 'End' ? last : 0;
  switch (key) {
    case 'ArrowRight': return Math.min(last, from + 1);
    case 'ArrowLeft': return Math.max(0, from - 1);
    case 'ArrowDown': return Math.min(last, from + columns);
    case 'ArrowUp': return from - columns >= 0 ? from - columns : from;
    case 'Home': return 0;
    case 'End': return last;
    default: return from;
  }
}

/**
 * Every unit as a tile, by callsign. One tab stop (a listbox); arrow keys move the choice, which
 * `aria-activedescendant` points at. Re-renders only when units come or go: a status change
 * re-renders its own tile, a new choice the two tiles concerned.
 */
export const UnitGrid = memo(() => {
  const t = text();
  const list = useRef<HTMLUListElement>(null);
  const callsigns = [...live.units.keys.value].sort(byCallsign);

  useSignalEffect(() => {
    const chosen = selected.value;
    const el = list.current;
    if (!el) return;
    const tile = chosen ? document.getElementById(tileId(chosen)) : null;
    if (tile && el.contains(tile)) {
      el.setAttribute('aria-activedescendant', tile.id);
      tile.scrollIntoView({ block: 'nearest' });
    } else el.removeAttribute('aria-activedescendant');
  });

  const onKeyDown = (e: KeyboardEvent) => {
    const el = list.current;
    if (!el || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') {
      selected.value = null;
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!selected.peek()) selected.value = tilesIn(el)[0]?.dataset.callsign ?? null;
      else (document.querySelector<HTMLElement>('#unit-detail .status-picker button') ?? document.querySelector<HTMLElement>('#unit-detail button'))?.focus();
      return;
    }
    if (!['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const tiles = tilesIn(el);
    if (!tiles.length) return;
    const from = tiles.findIndex((x) => x.dataset.callsign === selected.peek());
    selected.value = tiles[step(tiles, from, e.key)].dataset.callsign ?? null;
  };

  return (
    <ul ref={list} id="unit-grid" class={compact.value ? 'unit-grid compact' : 'unit-grid'} role="listbox" tabIndex={0} aria-label={t.fleet} onKeyDown={onKeyDown}>
      {callsigns.map((c) => <UnitTile key={c} callsign={c} />)}
    </ul>
  );
});
