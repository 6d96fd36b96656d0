import { useEffect, useState } from 'preact/hooks';
import { httpStatusOf, messageOf } from '../app/api.ts';
import { signedOut } from '../app/session.ts';
import { onNotice } from '../live/board-live.ts';
import type { Op } from '../../../client-sdk/live.ts';

/**
 * A setting a card shows and edits: read once, and read again whenever a `settings` notice says it
 * changed (saved on this board or another). A 401 signs the board out; any other failure is shown.
 */
export function useFollowedSetting<T>(read: () => Promise<T>, changed: (op: Op) => boolean) {
  const [value, setValue] = useState<T | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  async function load() {
    try {
      setValue(await read());
      setLoadError(null);
    } catch (err) {
      if (httpStatusOf(err) === 401) signedOut('expired');
      setLoadError(messageOf(err));
    }
  }
  useEffect(() => {
    void load();
    return onNotice('settings', (ops) => { if (ops.some(changed)) void load(); });
  }, []);
  return { value, setValue, loadError, reload: load };
}
