import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { dateTime } from '../../app/i18n.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { whole } from './format.ts';
import { CreatedLinkBox, LinkForm, type CreatedLink } from './link-form.tsx';
import { describeParams, linkText, type ChartName } from './link-words.ts';
import { useLoad } from './load.ts';
import { LoadFailed, Loading } from './parts.tsx';
import { periodInput } from './state.ts';

type Link = Out['stats']['chartLinks']['links'][number];

/**
 * Diagramm-Links: create one (its URL shown once), the working links with how often each was
 * fetched, and revoke after asking in place.
 */
export function LinksView() {
  const t = linkText();
  const [reload, setReload] = useState(0);
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const loaded = useLoad<Out['stats']['chartLinks']>(`links:${guild.value?.guildId}:${reload}`, () => api.stats.chartLinks.query());
  const revoke = useAction();
  const remove = (l: Link) => revoke.run(async () => {
    const r = await api.stats.revokeChartLink.mutate({ id: l.id });
    if (created?.id === l.id) setCreated(null);
    setReload((n) => n + 1);
    return r;
  }, () => t.revoked(l.label || t.unnamed));
  const links = loaded.data?.links;
  // The period bar names the range the links would keep: one row of the leaderboard resolves it.
  const input = { ...periodInput.value, limit: 1 };
  const probe = useLoad(`links-range:${guild.value?.guildId}:${JSON.stringify(input)}`, () => api.stats.leaderboard.query(input));
  return (
    <section class="card links" id="chart-links" aria-labelledby="links-title">
      <h2 id="links-title">{t.title} {links && <span class="pill">{links.length}</span>}</h2>
      <p class="muted">{t.intro}</p>
      <LoadFailed loaded={probe} id="stats-error" />
      {created && <CreatedLinkBox link={created} onDone={() => setCreated(null)} />}
      <div class="links-layout">
        <LinkForm onCreated={(l) => { setCreated(l); setReload((n) => n + 1); }} />
        <div class="links-list">
          <h3>{t.list}</h3>
          <LoadFailed loaded={loaded} />
          {!links && !loaded.error && <Loading />}
          {links?.length === 0 && <p class="muted" id="links-none">{t.none}</p>}
          {!!links?.length && (
            <table class="list stack" id="link-list">
              <thead><tr><th>{t.label}</th><th>{t.chart}</th><th>{t.createdAt}</th><th>{t.lastFetched}</th><th class="num">{t.fetches}</th><th><span class="sr-only">{t.revoke}</span></th></tr></thead>
              <tbody>
                {links.map((l) => (
                  <tr data-link-id={l.id} data-link-label={l.label}>
                    <td data-label={t.label}>{l.label || <span class="muted">{t.unnamed}</span>}<small class="muted mono" title={t.tokenEnd}>…{l.tokenLast4}</small></td>
                    <td data-label={t.chart}>{t.charts[l.chart as ChartName] ?? l.chart}<small class="muted">{describeParams(l.params)}</small></td>
                    <td data-label={t.createdAt} class="when">{dateTime(Date.parse(l.createdAt))}</td>
                    <td data-label={t.lastFetched} class="when last-fetched">{l.lastFetchedAt ? dateTime(Date.parse(l.lastFetchedAt)) : t.never}</td>
                    <td data-label={t.fetches} class="num fetch-count">{whole(l.fetchCount)}</td>
                    <td class="actions"><ConfirmRevoke id={`link-${l.id}`} what={l.label || t.unnamed} busy={revoke.busy} onConfirm={() => remove(l)} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Result id="links-result" action={revoke} />
        </div>
      </div>
    </section>
  );
}

/** Revoke, asked in place ("Wirklich widerrufen?"); focus moves to Abbrechen, so a second Enter is harmless. */
function ConfirmRevoke({ id, what, busy, onConfirm }: { id: string; what: string; busy: boolean; onConfirm: () => Promise<unknown> }) {
  const t = linkText();
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) cancel.current?.focus(); }, [asking]);
  if (!asking) return <button type="button" id={`${id}-revoke`} class="danger small" aria-label={`${t.revoke}: ${what}`} disabled={busy} onClick={() => setAsking(true)}>{t.revoke}</button>;
  return (
    <span class="confirm" role="group" aria-label={`${t.really} ${what}`}>
      <span class="confirm-q">{t.really}</span>
      <button type="button" id={`${id}-confirm`} class="danger small" disabled={busy} onClick={async () => { await onConfirm(); setAsking(false); }}>{t.yes}</button>
      <button ref={cancel} type="button" id={`${id}-cancel`} class="small" onClick={() => setAsking(false)}>{t.cancel}</button>
    </span>
  );
}
