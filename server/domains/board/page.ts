import type { BoardBundle } from './bundle.ts';

/**
 * The HTML shell of the board and the alarm kiosk: the bundle does the rest. Asset names carry
 * their content hash, so a new server version is never mixed with a cached old script.
 */
export function pageHtml(bundle: BoardBundle, title: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="stylesheet" href="/dispatch/assets/${bundle.css.name}">
<script type="module" src="/dispatch/assets/${bundle.js.name}"></script>
</head>
<body>
<div id="app"></div>
<noscript>Das Dispatch-Board braucht JavaScript. / The dispatch board needs JavaScript.</noscript>
</body>
</html>
`;
}
