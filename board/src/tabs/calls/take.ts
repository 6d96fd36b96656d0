import { signal } from '@preact/signals';
import { api, httpStatusOf, messageOf, reasonOf } from '../../app/api.ts';
import { signedOut } from '../../app/session.ts';
import { showTab } from '../../app/shell.tsx';
import { openSheet, putDetail, sheetMark } from '../incidents/store.ts';

/** The take in progress (its call's id), and the last take that failed, shown until dismissed or the next take. */
export const taking = signal<string | null>(null);
export const takeFailure = signal<{ id: string; title: string; message: string; offDuty: boolean } | null>(null);

/**
 * Takes a call for this person: the server makes an incident sheet of it, which opens on the
 * Einsätze tab. A failure (off duty, taken by someone else a moment earlier) stays on screen.
 */
export async function takeCall(id: string, title: string): Promise<void> {
  taking.value = id;
  takeFailure.value = null;
  try {
    const asked = sheetMark();
    const { incident } = await api.calls.take.mutate({ externalId: id });
    putDetail(incident, asked);
    openSheet.value = incident.number;
    showTab('incidents');
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 401) signedOut('expired');
    const offDuty = reasonOf(err)?.reason === 'off_duty';
    takeFailure.value = { id, title, message: messageOf(err), offDuty };
  } finally {
    if (taking.peek() === id) taking.value = null;
  }
}
