// Leaflet's sheet and the map's own come with the map's chunk as text and go into the page on
// first show: the board's entry sheet (first load) holds none of it.
import leafletCss from 'leaflet/dist/leaflet.css' with { type: 'text' };
import mapCss from './map.css' with { type: 'text' };

export function injectMapStyles(): void {
  if (document.getElementById('map-styles')) return;
  const style = document.createElement('style');
  style.id = 'map-styles';
  style.textContent = `${leafletCss}\n${mapCss}`;
  document.head.append(style);
}
