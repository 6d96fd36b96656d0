import { useState } from 'preact/hooks';
import { api, httpStatusOf, messageOf, reasonOf } from '../../app/api.ts';
import { signedOut } from '../../app/session.ts';
import { letterheads, loadLetterheads, uploads, type Letterhead } from './state.ts';
import { docText } from './strings.ts';
import { letterheadLimits } from '../../../../contract/limits.ts';

interface Draft { name: string; organisation: string; address: string; logoUploadId: string; primaryColor: string; secondaryColor: string; footer: string }

function draftOf(l: Letterhead | null): Draft {
  return {
    name: l?.name ?? '', organisation: l?.organisation ?? '', address: (l?.addressLines ?? []).join('\n'),
    logoUploadId: l?.logoUploadId ?? '',
    primaryColor: l?.primaryColor ?? '#c0392b', secondaryColor: l?.secondaryColor ?? '#2c3e50', footer: l?.footer ?? '',
  };
}

function fieldsOf(d: Draft) {
  return {
    name: d.name.trim(), organisation: d.organisation.trim(),
    addressLines: d.address.split('\n').map((s) => s.trim()).filter(Boolean),
    logoUploadId: d.logoUploadId || null, // ids are strings of digits, sent as they came
    primaryColor: d.primaryColor, secondaryColor: d.secondaryColor, footer: d.footer.trim(),
  };
}

/**
 * Creates a letterhead (`editing` null) or edits one. A save carries the version the form was
 * opened with: when someone else saved in between, the server answers 409, and the form says so,
 * loads the current letterhead and shows it (the person enters the change again on top of it).
 */
export function LetterheadForm({ editing, onDone }: { editing: Letterhead | null; onDone: (message: string) => void }) {
  const t = docText().letterheads;
  const [base, setBase] = useState(editing);
  const [draft, setDraft] = useState(() => draftOf(editing));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (k: keyof Draft) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const idp = base ? `letterhead-${base.id}-form` : 'letterhead-new';

  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const fields = fieldsOf(draft);
      if (base) await api.letterheads.update.mutate({ id: base.id, version: base.version, ...fields });
      else await api.letterheads.create.mutate(fields);
      await loadLetterheads();
      onDone(base ? t.saved(fields.name) : t.created(fields.name));
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === 401) signedOut('expired');
      const why = reasonOf(err);
      if (status === 409 && why?.reason === 'name_taken' && why.params.name) setError(t.nameTaken(why.params.name));
      else if (status === 409 && base && why?.reason === 'stale_version') {
        await loadLetterheads();
        const now = letterheads.peek()?.find((l) => l.id === base.id) ?? null;
        if (now) { setBase(now); setDraft(draftOf(now)); setError(t.conflict); } else setError(t.gone);
      } else if (status === 404 && base) setError(t.gone);
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  const logos = uploads.value ?? [];
  return (
    <form id={idp} class="letterhead-form" onSubmit={save} onKeyDown={(e) => { if (e.key === 'Escape') onDone(''); }}
      aria-label={base ? t.editing(base.name) : t.newTitle}>
      <h3>{base ? <>{t.editing(base.name)} <span class="muted">({t.version(base.version)})</span></> : t.newTitle}</h3>
      <div class="lh-fields">
        <label>{t.name}<input id={`${idp}-name`} required maxLength={letterheadLimits.name} value={draft.name} onInput={set('name')} /></label>
        <label>{t.organisation}<input id={`${idp}-organisation`} maxLength={letterheadLimits.organisation} value={draft.organisation} onInput={set('organisation')} /></label>
        <label class="wide">{t.address}<textarea id={`${idp}-address`} rows={3} value={draft.address} onInput={set('address')} /></label>
        <label>{t.logo}
          <select id={`${idp}-logo`} value={draft.logoUploadId} onChange={set('logoUploadId')}>
            <option value="">{t.noLogo}</option>
            {logos.map((u) => <option value={u.id}>{u.name}</option>)}
            {/* Without settings.manage the images are not listed: the current logo stays choosable. */}
            {draft.logoUploadId && !logos.some((u) => u.id === draft.logoUploadId) && <option value={draft.logoUploadId}>{t.currentLogo}</option>}
          </select>
        </label>
        <div class="row colours">
          <label>{t.primary}<input id={`${idp}-primary`} type="color" value={draft.primaryColor} onInput={set('primaryColor')} /></label>
          <label>{t.secondary}<input id={`${idp}-secondary`} type="color" value={draft.secondaryColor} onInput={set('secondaryColor')} /></label>
        </div>
        <label class="wide">{t.footer}<textarea id={`${idp}-footer`} rows={2} maxLength={letterheadLimits.footer} value={draft.footer} onInput={set('footer')} /></label>
      </div>
      <div class="row">
        <button id={`${idp}-save`} type="submit" class="primary" disabled={busy || !draft.name.trim()}>{base ? t.save : t.create}</button>
        <button id={`${idp}-cancel`} type="button" onClick={() => onDone('')}>{t.cancel}</button>
      </div>
      <div id={`${idp}-result`} class="result error" role="status" aria-live="polite">{error}</div>
    </form>
  );
}
