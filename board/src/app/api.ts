import { TRPCClientError } from '@trpc/client';
import { lang } from './i18n.ts';
import { localMessage } from './server-messages.ts';
import { createDispatchClient, httpStatusOf, reasonOf, type DispatchClient } from '../../../client-sdk/index.ts';

/**
 * The typed client of the open guild (tRPC over HTTP, the session cookie, `x-guild-id`): the same
 * procedures, inputs and outputs as dashboards and the REST API.
 */
export let api: DispatchClient = createDispatchClient({ baseUrl: location.origin });

export function useGuild(guildId: string): void {
  api = createDispatchClient({ baseUrl: location.origin, guildId });
}

export { httpStatusOf, reasonOf };

/**
 * The server's message of a failed call (what it says in `{ "error": … }`), for showing in place:
 * in German on a German board where its reason is a common one (server-messages.ts).
 */
export function messageOf(err: unknown): string {
  const message = err instanceof TRPCClientError || err instanceof Error ? err.message : String(err);
  return localMessage(message, lang.peek(), reasonOf(err));
}
