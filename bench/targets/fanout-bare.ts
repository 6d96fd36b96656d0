/**
 * The physical limit for `bench fanout`: bare uWebSockets.js, every connection subscribed to one
 * topic, each event one `app.publish` of one frame with exactly the bytes the hub sends a board
 * (same envelope, same serialized delta; built once per event, like any publisher must).
 * To keep the load generator identical it answers the subscription frame with `started` and an
 * (empty) snapshot; it runs no tRPC, no auth and no state. Socket options match the server's.
 */
import { randomBytes } from 'node:crypto';
import uWS from '../../server/transport/uws.ts';
import { loadConfig } from '../../server/config.ts';
import { deltaFor, envelope, serializeTracked, trackedId } from '../../server/hub/frames.ts';
import type { LiveFrame } from '../../contract/frames.ts';
import { report, stopOnSignalOrOrphan } from '../lib/child.ts';
import { serveFanoutControl } from '../lib/fanout-control.ts';
import { BENCH_GUILD, BOARD_TOPICS, eventDeltas } from '../lib/fanout-events.ts';

const TOPIC = 'board';
const SUB_ID = '1'; // what the boards send as the subscription id
const topics = [...BOARD_TOPICS].sort(); // the hub's topic-set order
const epoch = randomBytes(6).toString('hex');
const { limits } = loadConfig({ DEMO: '0' });
let head = 0;
let prev = 0;

const frameBytes = (frame: LiveFrame) => {
  const tid = trackedId(epoch, frame.seq);
  return envelope(SUB_ID, tid, serializeTracked(tid, frame));
};
const STARTED = JSON.stringify({ id: 1, result: { type: 'started' } });

const app = uWS.App();
app.ws('/trpc', {
  maxPayloadLength: limits.wsMaxPayloadBytes,
  maxBackpressure: limits.wsMaxBackpressureBytes,
  closeOnBackpressureLimit: 1,
  idleTimeout: 120,
  sendPingsAutomatically: true,
  message(ws, data) {
    if (!Buffer.from(data).includes('"subscription"')) return; // connectionParams: nothing to check here
    ws.cork(() => {
      ws.send(STARTED, false);
      ws.send(frameBytes({ kind: 'snapshot', seq: head, prev: null, at: Date.now(), topics: {} }), false);
      ws.subscribe(TOPIC);
    });
  },
});

serveFanoutControl({
  publish(i, t) {
    const seq = ++head;
    const frame = deltaFor({ guildId: BENCH_GUILD, epoch, seq, at: Date.now(), deltas: eventDeltas(i, t) }, { topics, overview: null }, prev)!;
    prev = seq;
    app.publish(TOPIC, frameBytes(frame), false);
    return seq;
  },
});

app.listen('127.0.0.1', 0, (token) => {
  if (!token) throw new Error('bare uWS: cannot listen');
  report({ port: uWS.us_socket_local_port(token), path: '/trpc?connectionParams=1' });
  stopOnSignalOrOrphan(() => uWS.us_listen_socket_close(token));
});
