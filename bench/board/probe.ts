/**
 * Runs in the board's page before its own script (an init script, bundled by bench/lib/board-page.ts):
 * it changes nothing in the product. Every WebSocket the page opens gets a first 'message'
 * listener that stamps each `live.watch` delta frame, and the page's own message listeners are
 * wrapped so the probe knows when the last of them (and the microtasks they queued: the SDK, the
 * stores, Preact's render) is done. Per delta, while measuring:
 *   arrived — the frame's MessageEvent was created (`event.timeStamp`: the frame reached the page);
 *   handled — the page's listeners and their microtasks ran, then style and layout (forced, so the
 *             work is counted here, not split into the frame);
 *   painted — the next frame's rendering ran: a requestAnimationFrame callback, then the first task
 *             after that frame (the main thread's paint of it is done);
 *   mutations — DOM mutation records in the board (#app) during the handling;
 *   naive — with a reference view mounted (bench/board/naive.tsx), the time to re-render it from the
 *           full state after the board handled the delta, style and layout included.
 */

export interface DeltaRecord {
  arrived: number; dispatched: number; listened: number; rendered: number; handled: number; frame: number; painted: number;
  mutations: number; naiveRender: number; naive: number; naiveMutations: number; bytes: number; topics: string[];
}

interface Pending extends DeltaRecord { event: MessageEvent; data: string }

export interface NaiveView { root: Element; render(): void; unmount(): void }

const probe = {
  /** 'measure': stamp deltas and keep records; 'off': only count frames (heap runs). */
  mode: 'off' as 'off' | 'measure',
  records: [] as DeltaRecord[],
  deltaFrames: 0,
  snapshotFrames: 0,
  snapshotBytes: 0,
  naive: null as NaiveView | null,
  start(): void {
    this.records = [];
    this.mode = 'measure';
    observe();
  },
  stop(): DeltaRecord[] {
    this.mode = 'off';
    const out = this.records;
    this.records = [];
    return out;
  },
  /** `performance.now()` once the board is live and its panel shows every name; false before. */
  readyAt(names: string[]): number | false {
    const panel = document.getElementById('panel');
    if (!panel || !document.querySelector('#connection.conn-live')) return false;
    const text = panel.textContent ?? '';
    return names.every((n) => text.includes(n)) ? performance.now() : false;
  },
  /**
   * The board's scripts (entry and chunks fetched so far) and style as loaded (Resource Timing:
   * bytes on the wire and decoded, summed), and the first contentful paint.
   */
  loaded() {
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const of = (ext: string) => res.filter((r) => r.name.includes('/dispatch/assets/') && r.name.endsWith(ext));
    const sum = (rs: PerformanceResourceTiming[], key: 'encodedBodySize' | 'decodedBodySize') => (rs.length ? rs.reduce((a, r) => a + r[key], 0) : NaN);
    const [js, css] = [of('.js'), of('.css')];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      firstContentfulPaint: fcp ? fcp.startTime : null,
      jsBytes: sum(js, 'encodedBodySize'), cssBytes: sum(css, 'encodedBodySize'),
      jsRawBytes: sum(js, 'decodedBodySize'), cssRawBytes: sum(css, 'decodedBodySize'),
      gzip: js.length > 0 && sum(js, 'encodedBodySize') < sum(js, 'decodedBodySize'),
    };
  },
};
export type Probe = typeof probe;
(window as unknown as { benchProbe: typeof probe }).benchProbe = probe;

let current: Pending | null = null;
let token = 0;
let boardMutations = 0;
let boardObserver: MutationObserver | null = null;
let naiveObserver: MutationObserver | null = null;
let naiveRoot: Element | null = null;
const options: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

function observe(): void {
  const app = document.getElementById('app');
  if (app && !boardObserver) {
    boardObserver = new MutationObserver((records) => void (boardMutations += records.length));
    boardObserver.observe(app, options);
  }
  if (probe.naive && naiveRoot !== probe.naive.root) {
    naiveObserver?.disconnect();
    naiveRoot = probe.naive.root;
    naiveObserver = new MutationObserver(() => {});
    naiveObserver.observe(naiveRoot, options);
  }
}

function arrive(event: MessageEvent): void {
  const data = event.data;
  if (typeof data !== 'string') return;
  if (data.includes('"kind":"delta"')) {
    probe.deltaFrames++;
    if (probe.mode !== 'measure') return;
    const dispatched = performance.now();
    boardMutations = 0;
    boardObserver?.takeRecords();
    current = {
      event, data, arrived: Math.min(event.timeStamp, dispatched), dispatched, listened: 0, rendered: 0, handled: 0, frame: 0, painted: 0,
      mutations: 0, naiveRender: 0, naive: 0, naiveMutations: 0, bytes: data.length, topics: [],
    };
  } else if (data.includes('"kind":"snapshot"')) {
    probe.snapshotFrames++;
    probe.snapshotBytes = data.length;
  }
}

/** After each of the page's listeners: the last one to finish (with its microtasks) closes the handling. */
function listenerDone(event: Event): void {
  const rec = current;
  if (!rec || rec.event !== event) return;
  rec.listened = performance.now();
  const mine = ++token;
  let depth = 0;
  const later = () => {
    if (++depth < 8) return queueMicrotask(later); // Preact and signals defer renders by one or two microtasks
    if (mine === token && current === rec) handled(rec);
  };
  queueMicrotask(later);
}

const painted: Pending[] = [];
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  const rec = painted.shift();
  if (!rec) return;
  rec.painted = performance.now();
  rec.topics = topicsOf(rec.data);
  const { event: _e, data: _d, ...kept } = rec;
  if (probe.mode === 'measure') probe.records.push(kept);
};

function handled(rec: Pending): void {
  current = null;
  rec.rendered = performance.now();
  rec.mutations = boardMutations + (boardObserver?.takeRecords().length ?? 0);
  void document.body.offsetHeight; // style and layout now, inside the handling
  rec.handled = performance.now();
  if (probe.naive) {
    observe();
    const start = performance.now();
    probe.naive.render();
    rec.naiveRender = performance.now() - start;
    rec.naiveMutations = naiveObserver?.takeRecords().length ?? 0;
    void document.body.offsetHeight;
    rec.naive = performance.now() - start;
  }
  requestAnimationFrame(() => {
    rec.frame = performance.now();
    painted.push(rec);
    channel.port2.postMessage(null);
  });
}

/** The topics a delta frame touches (read after the measurement, off the clock). */
function topicsOf(data: string): string[] {
  const find = (v: unknown): string[] => {
    if (!v || typeof v !== 'object') return [];
    const o = v as Record<string, unknown>;
    if (o.kind === 'delta' && o.topics && typeof o.topics === 'object') return Object.keys(o.topics);
    for (const x of Object.values(o)) {
      const found = find(x);
      if (found.length) return found;
    }
    return [];
  };
  try {
    return find(JSON.parse(data));
  } catch {
    return [];
  }
}

type Listener = EventListenerOrEventListenerObject;
const wrapped = new WeakMap<Listener, EventListener>();
const Native = window.WebSocket;

class ProbedWebSocket extends Native {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    super.addEventListener('message', arrive as EventListener); // first of all listeners
  }

  addEventListener(type: string, listener: Listener | null, opts?: boolean | AddEventListenerOptions): void {
    if (type !== 'message' || !listener) return super.addEventListener(type, listener as Listener, opts);
    let w = wrapped.get(listener);
    if (!w) {
      w = function (this: unknown, event: Event) {
        try {
          return typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
        } finally {
          listenerDone(event);
        }
      };
      wrapped.set(listener, w);
    }
    super.addEventListener(type, w, opts);
  }

  removeEventListener(type: string, listener: Listener | null, opts?: boolean | EventListenerOptions): void {
    super.removeEventListener(type, ((listener && wrapped.get(listener)) ?? listener) as Listener, opts);
  }
}
Object.defineProperty(window, 'WebSocket', { value: ProbedWebSocket, writable: true, configurable: true });
