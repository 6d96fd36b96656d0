import { useState } from 'preact/hooks';
import { httpStatusOf, messageOf } from '../app/api.ts';
import { signedOut } from '../app/session.ts';

export interface ActionState { busy: boolean; ok: string | null; error: string | null; status: number | null }

/**
 * One user action with its outcome shown in place: `run(() => api.x.mutate(…), (r) => 'done')`.
 * The server's own message is shown on failure; a 401 ends the session on the board.
 */
export function useAction() {
  const [state, setState] = useState<ActionState>({ busy: false, ok: null, error: null, status: null });
  async function run<T>(fn: () => Promise<T>, ok?: (result: T) => string | null): Promise<T | undefined> {
    setState({ busy: true, ok: null, error: null, status: null });
    try {
      const result = await fn();
      setState({ busy: false, ok: ok?.(result) ?? null, error: null, status: null });
      return result;
    } catch (err) {
      const status = httpStatusOf(err) ?? null;
      if (status === 401) signedOut('expired');
      setState({ busy: false, ok: null, error: messageOf(err), status });
      return undefined;
    }
  }
  const clear = () => setState({ busy: false, ok: null, error: null, status: null });
  return { ...state, run, clear };
}

/** The outcome of an action, read out by screen readers. */
export function Result({ action, id }: { action: ActionState; id?: string }) {
  return (
    <div id={id} class={action.error ? 'result error' : 'result ok'} role="status" aria-live="polite">
      {action.error ?? action.ok ?? ''}
    </div>
  );
}
