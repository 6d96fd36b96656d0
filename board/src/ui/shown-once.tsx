import { useEffect, useRef, useState } from 'preact/hooks';

async function copyText(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select(); // no clipboard permission (plain HTTP, an old browser): the selection copies the old way
    return document.execCommand('copy');
  }
}

export interface ShownOnceProps {
  /** The secret or URL, shown this one time. */
  value: string;
  /** A new value (another key, another link) selects its field again. */
  id: string;
  title: string;
  /** Why it must be copied now. */
  warning: string;
  words: { label: string; copy: string; copied: string; copyFailed: string; done: string };
  /** Element ids (the tests and labels find them): box, field, copy button, copy result, done button. */
  ids: { box: string; field: string; copy: string; result: string; done: string };
  class: string;
  onDone: () => void;
}

/** The one sight of something the server keeps only as a hash: read-only field, copy button, and the warning that it will not come back. */
export function ShownOnce(p: ShownOnceProps) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    setCopied(null);
    input.current?.focus();
    input.current?.select();
  }, [p.id]);
  return (
    <div id={p.ids.box} class={p.class} role="alert">
      <h3>{p.title}</h3>
      <p class="warn-text">{p.warning}</p>
      <div class="copy-row">
        <input ref={input} id={p.ids.field} class="mono" readOnly value={p.value} aria-label={p.words.label} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button id={p.ids.copy} type="button" class="primary" onClick={async () => setCopied(await copyText(input.current!))}>{p.words.copy}</button>
      </div>
      <div id={p.ids.result} role="status" aria-live="polite" class={copied === false ? 'result error' : 'result ok'}>
        {copied === null ? '' : copied ? p.words.copied : p.words.copyFailed}
      </div>
      <button id={p.ids.done} type="button" onClick={p.onDone}>{p.words.done}</button>
    </div>
  );
}
