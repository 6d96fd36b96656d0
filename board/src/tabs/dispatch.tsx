import { Slots } from './dispatch/slots.tsx';
import { Standby } from './dispatch/standby.tsx';
import './dispatch/dispatch.css';

/** Leitstelle: the dispatcher seats and the stand-by roster, each live from its own topic. */
export function DispatchTab() {
  return (
    <div class="grid dispatch-grid">
      <Slots />
      <Standby />
    </div>
  );
}
