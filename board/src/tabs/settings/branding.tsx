import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { useFollowedSetting } from '../../ui/followed-setting.ts';
import { texts } from '../../app/i18n.ts';
import { applyBranding } from '../../app/branding-apply.ts';
import type { In, Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { TabOrder } from './tab-order.tsx';

const text = texts({
  title: 'Erscheinungsbild', intro: 'Name, Farben und Icon der Wache, wie jeder Bildschirm und das Discord-Panel sie zeigen.',
  name: 'Name', color: 'Akzentfarbe', secondary: 'Zweitfarbe', save: 'Speichern', saved: 'Gespeichert.',
  icon: 'Icon', iconCustom: 'Aus einem Upload', iconDefault: 'Standard-Icon in der Akzentfarbe',
  uploadId: 'Upload-Nr.', useUpload: 'Als Icon verwenden', backToDefault: 'Standard-Icon', iconSet: 'Icon gesetzt.',
  iconReset: 'Standard-Icon wiederhergestellt.', orderSaved: 'Reihenfolge gespeichert.', loading: 'Lädt …',
}, {
  title: 'Appearance', intro: 'The name, colours and icon of the station, as every board and the Discord panel show them.',
  name: 'Name', color: 'Accent colour', secondary: 'Second colour', save: 'Save', saved: 'Saved.',
  icon: 'Icon', iconCustom: 'From an upload', iconDefault: 'Default icon in the accent colour',
  uploadId: 'Upload no.', useUpload: 'Use as icon', backToDefault: 'Default icon', iconSet: 'Icon set.',
  iconReset: 'Default icon restored.', orderSaved: 'Order saved.', loading: 'Loading …',
});

type Admin = Out['branding']['adminGet'];
type Form = { name: string; color: string; secondaryColor: string };

/** Name, colours, icon and tab order (PATCH /admin/branding); follows a change made elsewhere unless this form is being edited. */
export function BrandingCard() {
  const t = text();
  const { value: current, setValue: setCurrent, loadError } = useFollowedSetting(() => api.branding.adminGet.query(), (op) => op.op === 'set' && op.key === 'branding');
  const [form, setForm] = useState<Form | null>(null);
  const [uploadId, setUploadId] = useState('');
  const save = useAction();
  const icon = useAction();
  const tabs = useAction();
  const values = form ?? (current ? { name: current.name, color: current.color, secondaryColor: current.secondaryColor } : { name: '', color: '#000000', secondaryColor: '#000000' });
  const patch = async (action: typeof save, body: In['branding']['set'], ok: string) => {
    const r = await action.run(() => api.branding.set.mutate(body), () => ok);
    if (!r) return false;
    setCurrent(r);
    applyBranding(r);
    return true;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    // Only what was edited: the audit log names what changed, and an untouched form changes nothing.
    const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== current?.[k as keyof Form]));
    if (Object.keys(changed).length === 0) return setForm(null);
    if (await patch(save, changed, t.saved)) setForm(null);
  };
  const field = (key: keyof Form) => (e: Event) => setForm({ ...values, [key]: (e.target as HTMLInputElement).value });
  return (
    <section id="settings-branding" class="card" aria-labelledby="branding-title">
      <h2 id="branding-title">{t.title}</h2>
      <p class="muted">{t.intro}</p>
      {loadError && <p class="error" role="alert">{loadError}</p>}
      {!current && !loadError ? <p class="muted">{t.loading}</p> : current && (
        <>
          <form id="branding-form" onSubmit={submit} noValidate>
            <label>{t.name}<input id="branding-name" maxLength={100} value={values.name} onInput={field('name')} /></label>
            <div class="row">
              <label>{t.color}<input id="branding-color" type="color" value={values.color} onInput={field('color')} /></label>
              <label>{t.secondary}<input id="branding-secondary" type="color" value={values.secondaryColor} onInput={field('secondaryColor')} /></label>
              <button id="branding-save" type="submit" class="primary" disabled={save.busy}>{t.save}</button>
            </div>
            <Result id="branding-result" action={save} />
          </form>
          <h3>{t.icon}</h3>
          <div class="row">
            <img id="branding-icon" src={current.iconUrl} alt="" width={64} height={64} />
            <span id="branding-icon-kind" class="muted">{current.customIcon ? `${t.iconCustom}${current.iconUploadId ? ` (${current.iconUploadId})` : ''}` : t.iconDefault}</span>
          </div>
          <form id="branding-icon-form" class="row" noValidate onSubmit={async (e) => {
            e.preventDefault();
            if (await patch(icon, { iconUploadId: uploadId.trim() }, t.iconSet)) setUploadId('');
          }}>
            <label>{t.uploadId}<input id="branding-upload-id" class="num" inputMode="numeric" value={uploadId} onInput={(e) => setUploadId((e.target as HTMLInputElement).value)} /></label>
            <button id="branding-use-upload" type="submit" disabled={icon.busy}>{t.useUpload}</button>
            {current.customIcon && <button id="branding-default-icon" type="button" disabled={icon.busy}
              onClick={() => void patch(icon, { iconUploadId: null }, t.iconReset)}>{t.backToDefault}</button>}
          </form>
          <Result id="branding-icon-result" action={icon} />
          <TabOrder order={current.tabOrder} busy={tabs.busy} onSave={(order) => void patch(tabs, { tabOrder: order }, t.orderSaved)} />
          <Result id="branding-tabs-result" action={tabs} />
        </>
      )}
    </section>
  );
}
