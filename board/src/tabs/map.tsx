import { useEffect, useRef } from 'preact/hooks';
import { MapView } from './map/view.tsx';

/**
 * Karte: the guild's map (or a coordinate grid) with the units moving live, the open calls and
 * incidents; this module and Leaflet load the first time a map is shown (registry.ts). The map
 * fills the window below the header and tabs, whatever their height (two rows on a phone).
 */
export function MapTab() {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const fit = () => {
      const el = box.current?.querySelector<HTMLElement>('.map-view');
      if (!el) return;
      const top = el.getBoundingClientRect().top + scrollY;
      el.style.height = `${Math.max(320, innerHeight - top - 20)}px`;
    };
    fit();
    addEventListener('resize', fit);
    return () => removeEventListener('resize', fit);
  }, []);
  return (
    <section class="map-tab" ref={box}>
      <MapView />
    </section>
  );
}
