import { TRPCError } from '@trpc/server';
import { isObject, procedureTypes } from '@trpc/server/unstable-core-do-not-import';

type Transformer = { input: { deserialize(value: unknown): unknown } };

export type ClientMessage =
  | { id: string | number; method: 'subscription.stop' }
  | { id: string | number; method: 'query' | 'mutation' | 'subscription'; params: { path: string; input: unknown; lastEventId?: string } };

const parseError = (message: string) => new TRPCError({ code: 'PARSE_ERROR', message });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A frame's text, decoded at once (uWS frees `data` when the handler returns); null when the bytes
 * are not UTF-8. Text frames uWS checks itself (it drops the connection, 1006); binary frames reach
 * us as they are, and a replacement character must never stand in for what the client sent.
 */
export function frameText(data: ArrayBuffer): string | null {
  try {
    return strictUtf8.decode(data);
  } catch {
    return null;
  }
}

/** The message's id when it is a usable one (so an error can name it), else null. */
export function idOf(raw: unknown): string | number | null {
  const id = isObject(raw) ? raw.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * A client frame's message, checked as tRPC's `parseTRPCMessage` checks it, but every mistake is a
 * PARSE_ERROR (400) that says what is wrong, not a plain Error that would surface as a 500.
 */
export function parseClientMessage(raw: unknown, transformer: Transformer): ClientMessage {
  if (!isObject(raw)) throw parseError('a message must be a JSON object {"id", "method", "params"} (or an array of them)');
  const { id, jsonrpc, method, params } = raw;
  if (id === undefined || id === null) throw parseError('`id` is required');
  if (typeof id !== 'string' && (typeof id !== 'number' || !Number.isFinite(id))) throw parseError('`id` must be a string or a number');
  if (jsonrpc !== undefined && jsonrpc !== '2.0') throw parseError('`jsonrpc` must be "2.0" when given');
  if (method === 'subscription.stop') return { id, method };
  if (typeof method !== 'string' || !(procedureTypes as readonly string[]).includes(method)) {
    throw parseError('`method` must be "query", "mutation", "subscription" or "subscription.stop"');
  }
  if (!isObject(params)) throw parseError('`params` must be an object with the procedure\'s `path`');
  const { path, input, lastEventId } = params;
  if (typeof path !== 'string') throw parseError('`params.path` must be a string');
  if (lastEventId !== undefined && typeof lastEventId !== 'string') throw parseError('`params.lastEventId` must be a string');
  let value: unknown;
  try {
    value = input === undefined ? undefined : transformer.input.deserialize(input);
  } catch {
    throw parseError('`params.input` is not in the transformer\'s format ({"json": …})');
  }
  return { id, method: method as 'query' | 'mutation' | 'subscription', params: { path, input: value, lastEventId } };
}
