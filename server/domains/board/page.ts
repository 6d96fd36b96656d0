import type { BoardBundle } from './bundle.ts';

/** A blue star of life, inline: no request (and no 404) for /favicon.ico. */
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -12 24 24"><g fill="#1a5fb4">'
  + [0, 60, 120].map((deg) => `<rect x="-3" y="-11" width="6" height="22" rx="1" transform="rotate(${deg})"/>`).join('')
  + '</g></svg>',
)}`;

/**
 * The HTML shell of the board and the alarm kiosk: the bundle does the rest. Asset names carry
 * their content hash, so a new server version is never mixed with a cached old script. The chunks
 * the entry imports statically are preloaded beside it (no second round trip).
 */
export function pageHtml(bundle: BoardBundle, title: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="${ICON}">
<title>${title}</title>
<link rel="stylesheet" href="/dispatch/assets/${bundle.css.name}">
<script type="module" src="/dispatch/assets/${bundle.js.name}"></script>
${bundle.preload.map((a) => `<link rel="modulepreload" href="/dispatch/assets/${a.name}">\n`).join('')}</head>
<body>
<div id="app"></div>
<noscript>Das Dispatch-Board braucht JavaScript. / The dispatch board needs JavaScript.</noscript>
</body>
</html>
`;
}
