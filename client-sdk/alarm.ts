/**
 * Entry `@dispatch-terminal/client/alarm` (Node only): the alarm session of a station PC (one-time
 * login link → session kept in a state file), the alarm watcher, the tone player and the terminal client.
 */
export * from './alarm-client.ts';
export * from './alarm-session.ts';
export * from './alarm-terminal.ts';
export * from './alarm-tone.ts';
