import type Uws from 'uWebSockets.js';
import { loadUws } from './uws-builds.ts';

/**
 * uWebSockets.js: the shipped build that loads on this system (uws-builds.ts). Import it from here,
 * never from the package, so every Node line gets its own binary; importing it where none loads
 * throws UwsUnavailableError, whose message says which Node and distributions work.
 * Usable like the package's default import: `uWS.App()` as a value, `uWS.TemplatedApp` as a type.
 */
const loaded = loadUws<typeof Uws>();
const uWS = loaded.uws;

/** Which package's binary was loaded. */
export const uwsBuild = loaded.build;

// The package's types under the same name (a namespace of types only, so it merges with the value).
declare namespace uWS {
  export type us_listen_socket = Uws.us_listen_socket;
  export type us_socket = Uws.us_socket;
  export type us_socket_context_t = Uws.us_socket_context_t;
  export type RecognizedString = Uws.RecognizedString;
  export type WebSocket<UserData> = Uws.WebSocket<UserData>;
  export type HttpResponse = Uws.HttpResponse;
  export type HttpRequest = Uws.HttpRequest;
  export type WebSocketBehavior<UserData> = Uws.WebSocketBehavior<UserData>;
  export type AppOptions = Uws.AppOptions;
  export type TemplatedApp = Uws.TemplatedApp;
  export type MultipartField = Uws.MultipartField;
  export type CompressOptions = Uws.CompressOptions;
}

export default uWS;
