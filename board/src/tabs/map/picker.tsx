import { useEffect } from 'preact/hooks';
import { MapView, type Picked } from './view.tsx';
import { mapText } from './words.ts';

/**
 * The map over the page to pick a place (an incident sheet's location): a click gives the game
 * coordinates and the nearest postal, and closes it; Escape or Abbrechen closes it without.
 */
export function MapPicker({ onPick, onClose }: { onPick: (p: Picked) => void; onClose: () => void }) {
  const t = mapText();
  useEffect(() => {
    const key = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    addEventListener('keydown', key);
    return () => removeEventListener('keydown', key);
  }, [onClose]);
  return (
    <div class="map-picker" role="dialog" aria-modal="true" aria-labelledby="map-pick-title">
      <div class="card">
        <div class="map-pick-bar">
          <h2 id="map-pick-title">{t.pickTitle}</h2>
          <span class="muted">{t.pickHint}</span>
          <button type="button" class="small" id="map-pick-cancel" style={{ marginLeft: 'auto' }} onClick={onClose}>{t.pickCancel}</button>
        </div>
        <MapView onPick={(p) => { onPick(p); onClose(); }} />
      </div>
    </div>
  );
}
