import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import { lazy } from '../../ui/lazy.tsx';
import type { Picked } from './view.tsx';
import { mapText } from './words.ts';

// The picker (and with it Leaflet) loads when the button is first pressed, not with the sheet.
const MapPicker = lazy(() => import('./picker.tsx').then((m) => m.MapPicker as ComponentType)) as unknown as ComponentType<{ onPick: (p: Picked) => void; onClose: () => void }>;

/** "Auf Karte wählen": opens the map over the page; a click there hands back x/y (and the nearest postal). */
export function PickOnMap({ onPick, disabled }: { onPick: (p: Picked) => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="small" id="sheet-pick-map" style={{ alignSelf: 'end', justifySelf: 'start' }} disabled={disabled} onClick={() => setOpen(true)}>{mapText().pickButton}</button>
      {open && <MapPicker onPick={onPick} onClose={() => setOpen(false)} />}
    </>
  );
}
