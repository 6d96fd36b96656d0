import { useEffect, useRef, useState } from 'preact/hooks';
import { when } from '../../app/i18n.ts';
import { can } from '../../app/session.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { EcgPanel } from './ecg-strip.tsx';
import { Images } from './images.tsx';
import { StateBadge } from './list.tsx';
import { Injuries, Labs, Timeline, Treatments } from './sections.tsx';
import { closeFile, detail, detailError, showFile } from './store.ts';
import { ms, openInjuries, type Detail } from './types.ts';
import { VitalsChart } from './vitals-chart.tsx';
import { medicText } from './words.ts';

/**
 * "Akte schließen" with one confirmation and an optional note; the answer is the closed file. A 409
 * (closed meanwhile) is told and the file reloaded. Stays mounted after the close, so its outcome
 * stays readable. Asking moves focus to "Abbrechen", so a second Enter is harmless.
 */
function CloseFile({ d }: { d: Detail }) {
  const t = medicText();
  const action = useAction();
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) cancel.current?.focus(); }, [asking]);
  const close = async () => {
    const done = await action.run(() => closeFile(d.fileId, note.trim()), () => t.closedOk(d.fileId));
    if (done) setNote('');
    setAsking(false);
  };
  if (d.status !== 'open' && !action.ok && !action.error) return null;
  return (
    <div class="medic-close">
      {d.status !== 'open' ? null : !asking ? <button type="button" class="danger" id="medic-close" onClick={() => setAsking(true)}>{t.close}</button> : (
        <div class="close-ask" role="group" aria-label={t.closeConfirm}>
          <p>{t.closeConfirm}</p>
          <label>{t.note}<input id="medic-close-note" maxLength={500} value={note} onInput={(e) => setNote(e.currentTarget.value)} /></label>
          <div class="row">
            <button type="button" class="danger" id="medic-close-yes" disabled={action.busy} onClick={() => void close()}>{t.yesClose}</button>
            <button ref={cancel} type="button" id="medic-close-cancel" onClick={() => setAsking(false)}>{t.cancel}</button>
          </div>
        </div>
      )}
      {action.status === 409 ? <p class="medic-conflict" id="medic-close-result" role="status">{t.alreadyClosed}</p> : <Result action={action} id="medic-close-result" />}
    </div>
  );
}

function Header({ d }: { d: Detail }) {
  const t = medicText();
  const st = d.state;
  return (
    <>
      <header class="file-head">
        <h2 id="medic-file-title">{d.name ?? t.unnamed}</h2>
        <StateBadge s={d} id="medic-file-state" />
        {/* a closed file shows its outcome in the badge */}
        <span class={`pill file-status ${d.status}`} id="medic-file-status" data-status={d.status} hidden={d.status !== 'open'}>{d.status === 'open' ? t.fileOpen : t.fileClosed}</span>
      </header>
      <dl class="file-facts">
        <div><dt>{t.citizen}</dt><dd id="medic-file-citizen" class="mono">{d.citizenId}</dd></div>
        <div><dt>{t.fileLabel}</dt><dd>#{d.fileId}</dd></div>
        <div><dt>{t.openedAt}</dt><dd>{when(ms(d.openedAt))}</dd></div>
        {d.closedAt !== null && <div><dt>{t.closedAt}</dt><dd>{when(ms(d.closedAt))}</dd></div>}
        {d.outcome && <div><dt>{t.outcomeLabel}</dt><dd id="medic-file-outcome">{t.outcome[d.outcome] ?? d.outcome}</dd></div>}
        <div><dt>{t.lastEvent}</dt><dd>{when(ms(d.lastEventAt))}</dd></div>
        {st && d.status === 'open' && (
          <div><dt>{t.inGame}</dt><dd>
            {[typeof st.health === 'number' ? `${t.health} ${st.health}` : '', typeof st.armor === 'number' ? `${t.armor} ${st.armor}` : '',
              st.conscious === true ? t.conscious : st.conscious === false ? t.unconscious : ''].filter(Boolean).join(' · ') || when(ms(st.at))}
          </dd></div>
        )}
      </dl>
    </>
  );
}

/** A section of the file with its heading and a count. */
function Part({ id, title, n, children, wide }: { id: string; title: string; n?: number; children: preact.ComponentChildren; wide?: boolean }) {
  return (
    <section class={wide ? 'file-part wide' : 'file-part'} aria-labelledby={`${id}-title`} id={`part-${id}`}>
      <h3 id={`${id}-title`}>{title}{n !== undefined && <span class="pill">{n}</span>}</h3>
      {children}
    </section>
  );
}

/** The open patient file: header, vitals chart, ECG, injuries, treatments, lab, images, timeline, close. */
export function PatientFile({ fileId }: { fileId: string }) {
  const t = medicText();
  const d = detail.value;
  const failed = detailError.value;
  const back = <button type="button" class="small file-back" id="medic-back" onClick={() => showFile(null)}>← {t.back}</button>;
  if (!d || d.fileId !== fileId) {
    const text = failed ? (failed.status === 404 ? t.gone : failed.message) : t.loading;
    return <>{back}<p class={failed ? 'error' : 'muted'} role={failed ? 'alert' : undefined}>{text}</p></>;
  }
  return (
    <article class={`patient-file status-${d.status}`} data-file={d.fileId} aria-labelledby="medic-file-title">
      {back}
      <Header d={d} />
      <Part id="vitals" title={t.vitals} wide><VitalsChart vitals={d.vitals} /></Part>
      <Part id="ecg" title={t.ecg} wide><EcgPanel ecg={d.ecg} /></Part>
      <div class="file-cols">
        <Part id="injuries" title={t.injuriesTitle} n={openInjuries(d)}><Injuries list={d.injuries} /></Part>
        <Part id="labs" title={t.labs}><Labs d={d} /></Part>
        <Part id="treatments" title={t.treatments} n={d.treatments.length}><Treatments d={d} /></Part>
        <Part id="images" title={t.images} n={d.images.length}><Images list={d.images} /></Part>
      </div>
      <Part id="timeline" title={t.timeline} wide><Timeline d={d} /></Part>
      {can('medic.files.manage') ? <CloseFile key={d.fileId} d={d} /> : d.status === 'open' && <p class="muted">{t.readOnly}</p>}
    </article>
  );
}
