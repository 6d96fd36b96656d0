import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { texts } from '../app/i18n.ts';

const text = texts(
  { loading: 'Lädt …', failed: 'Dieser Bereich konnte nicht geladen werden. Lade die Seite neu.', retry: 'Neu laden' },
  { loading: 'Loading …', failed: 'This section could not be loaded. Reload the page.', retry: 'Reload' },
);

/** A component whose code is fetched on first use: `load()` starts (or joins) the fetch, e.g. on hover. */
export type Lazy = FunctionComponent & { load: () => Promise<ComponentType> };

/**
 * A component loaded by a dynamic `import()` the first time it is shown (or `load`ed): until then
 * a short "Loading …" line, after it the component itself, also on every later render (the module
 * is kept). A failed fetch (the network, a server updated meanwhile) says so and offers a reload;
 * the next showing tries again.
 */
export function lazy(importer: () => Promise<ComponentType>): Lazy {
  let loaded: ComponentType | null = null;
  let pending: Promise<ComponentType> | null = null;
  const load = () => (pending ??= importer().then((c) => (loaded = c), (err) => {
    pending = null;
    throw err;
  }));
  function LazyComponent(props: object) {
    const [, rendered] = useState(0); // a new value once the module is there: render again
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded || failed) return;
      let live = true;
      load().then(() => live && rendered((n) => n + 1), () => live && setFailed(true));
      return () => void (live = false);
    }, [failed]);
    const t = text();
    if (loaded) {
      const Loaded = loaded;
      return <Loaded {...props} />;
    }
    if (failed) {
      return <p class="notice error lazy-failed" role="alert">{t.failed} <button type="button" onClick={() => location.reload()}>{t.retry}</button></p>;
    }
    return <p class="muted lazy-loading" aria-busy="true">{t.loading}</p>;
  }
  return Object.assign(LazyComponent, { load });
}
