import WebSocket from 'ws';
import { createTRPCClient, createWSClient, wsLink, type TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/trpc/app-router.ts';
import type { PositionsFrame } from '../../contract/positions.ts';
import { wsWithCookie } from './live.ts';

/**
 * A `live.positions` subscription through the stock tRPC WebSocket client, with a key or a
 * signed-in session; records every frame with the time it arrived, and every error.
 */
export function subscribePositions(
  t: { teardown(fn: () => unknown): void }, url: string,
  cred: { key?: string; session?: { cookie: string; guildId: string } }, input: { intervalMs?: number } = {},
) {
  const WS = cred.session ? wsWithCookie(cred.session.cookie) : WebSocket;
  const wsClient = createWSClient({
    url: `${url.replace('http', 'ws')}/trpc`, WebSocket: WS as never,
    connectionParams: () => (cred.key ? { authorization: `Bearer ${cred.key}` } : { guildId: cred.session!.guildId }),
  });
  const c = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  const frames: { frame: PositionsFrame; receivedAt: number }[] = [];
  const errors: TRPCClientError<any>[] = [];
  const sub = c.live.positions.subscribe(input, {
    onData: (frame) => void frames.push({ frame: frame as PositionsFrame, receivedAt: Date.now() }),
    onError: (err) => void errors.push(err as TRPCClientError<any>),
  });
  const stop = () => {
    sub.unsubscribe();
    wsClient.close();
  };
  t.teardown(stop);
  return { frames, errors, stop };
}
