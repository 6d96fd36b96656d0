import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { lazy } from '../../ui/lazy.tsx';

/** Wide enough for the call list and a map side by side. */
const WIDE = '(min-width: 1400px)';

// The map (and Leaflet) load only when a wide calls tab first shows it.
const MapBeside = lazy(() => import('./view.tsx').then((m) => m.MapView as ComponentType)) as unknown as ComponentType<{ compact?: boolean }>;

/** The calls tab's content, with the live map beside it on a screen at least 1400 px wide. */
export function WithMapBeside({ children }: { children: ComponentChildren }) {
  const [wide, setWide] = useState(() => matchMedia(WIDE).matches);
  useEffect(() => {
    const m = matchMedia(WIDE);
    const changed = () => setWide(m.matches);
    m.addEventListener('change', changed);
    return () => m.removeEventListener('change', changed);
  }, []);
  if (!wide) return <>{children}</>;
  return (
    <div class="calls-with-map" style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '1rem', alignItems: 'start' }}>
      <div>{children}</div>
      <aside class="map-side card" style={{ position: 'sticky', top: '7rem', margin: 0, padding: '.6rem' }}>
        <MapBeside compact />
      </aside>
    </div>
  );
}
