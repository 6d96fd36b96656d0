import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../app/api.ts';
import { when } from '../../app/i18n.ts';
import { can } from '../../app/session.ts';
import { CloseSheet } from './close.tsx';
import { SheetForm } from './edit.tsx';
import { LinkedCalls } from './linked-calls.tsx';
import { ProposalPanel } from './proposal.tsx';
import { loadTimeline, openSheet, sheet } from './store.ts';
import { Timeline } from './timeline.tsx';
import { SheetUnits } from './units.tsx';
import { incidentText } from './words.ts';

/** The open incident sheet: its fields, units and timeline, all live. */
export function SheetView({ n }: { n: number }) {
  const t = incidentText();
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    setFailed(null);
    loadTimeline(n).catch((err) => setFailed(messageOf(err)));
  }, [n]);
  const s = sheet(n).value;
  const back = <button type="button" class="small sheet-back" id="sheet-back" onClick={() => (openSheet.value = null)}>← {t.back}</button>;
  if (!s) return <>{back}<p class={failed ? 'error' : 'muted'} role={failed ? 'alert' : undefined}>{failed ?? t.loading}</p></>;
  const canEdit = can('incidents.manage') && s.state === 'open';
  return (
    <article class={`sheet state-${s.state}`} data-number={n} data-version={s.version} aria-labelledby="sheet-title">
      {back}
      <header class="sheet-head">
        <h2 id="sheet-title"><span class="sheet-no">{n}</span> {s.keyword}</h2>
        <span class={`pill state ${s.state}`} id="sheet-state">{s.state === 'open' ? t.open : t.closed}</span>
      </header>
      <p class="muted sheet-meta">
        {t.createdAt} {when(s.createdAt)} {s.createdBy.name ? t.by(s.createdBy.name) : ''}
        {s.call && <> · <span title={t.callId(s.call.externalId)}>{t.fromCall}</span></>}
        {s.closedAt && <> · {t.closedAt} {when(s.closedAt)}</>}
        {' · '}{t.version} {s.version}
      </p>
      {s.state === 'closed' && <p class="sheet-readonly" id="sheet-readonly">{t.isClosed}</p>}
      {s.state === 'open' && !can('incidents.manage') && <p class="muted">{t.readOnly}</p>}
      <SheetForm key={n} s={s} canEdit={canEdit} />
      <ProposalPanel s={s} />
      <div class="sheet-cols">
        <SheetUnits s={s} canEdit={canEdit} />
        <Timeline n={n} canEdit={canEdit} />
      </div>
      <LinkedCalls n={n} />
      {can('incidents.manage') && <CloseSheet s={s} />}
    </article>
  );
}
