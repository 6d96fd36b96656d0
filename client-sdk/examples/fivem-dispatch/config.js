// The server URL and the key are convars, never in a file: in server.cfg
//   set dt_url "https://dispatch.example.org"
//   set dt_key "stmp_sc_..."     <- a scoped key with calls:read is enough; `set`, not `setr`
globalThis.Config = globalThis.Config || {};

Config.Dispatch = {
  url: GetConvar('dt_url', ''),
  key: GetConvar('dt_key', ''),
  pollMs: 500,               // how often the alarms are read: an alarm reaches the crew within about this
  // How a player is matched to a crew member of the unit: their Discord identifier (`discord:<user id>`,
  // the same user the board knows), or a badge your framework tells this resource (exports.setBadge).
  match: ['discord', 'badge'],
};
