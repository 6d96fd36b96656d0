// Config.Medic (spec §2 "Game-side medic settings") with every default written out. The package types
// it as `MedicConfig` (@dispatch-terminal/client/medic); server.js checks it with resolveMedicConfig at
// start and refuses to start naming every bad or unknown option.
// The server URL and the key are convars, never in a file: in server.cfg
//   set dt_url "https://dispatch.example.org"
//   set dt_key "stmp_..."        <- an UNSCOPED key (the /medic/ routes refuse scoped keys); `set`, not `setr`
globalThis.Config = globalThis.Config || {};

/** @type {import('@dispatch-terminal/client/medic').MedicConfig} */
Config.Medic = {
  Runtime: { enabled: false },             // the in-game simulation (not part of this resource); the sync runs anyway
  Compat: { onConflict: 'stop' },          // 'stop' | 'refuse': a conflicting ambulance script
  HealthAuthority: 'always',               // 'always' | 'while_patient'
  Health: { pin: true },                   // debug only
  Timeline: { scale: 0.45, arrestFloorS: 240 },
  Respawn: { waitS: 60, bill: { base: 500, perInjury: 250, max: 5000 } },
  Tiers: {
    jobs: { 0: 2, 1: 3, 2: 4 },            // job grade -> care tier (1 first aider, 2 EMT, 3 paramedic, 4 emergency physician)
    mdtRanks: {},                          // service rank id -> care tier; wins over the job grade while the service is reachable
  },
  Assist: { default: 'assistiert', ceiling: 'ausbildung' }, // realistisch < assistiert < ausbildung
  Minigames: {},                           // e.g. { cpr: { enabled: false } }; a minigame not listed is enabled
  Notruf: { toDispatch: true, requireItem: true, minTier: 2 },
  Hospital: { enabled: true },
  Integration: { hatchEnabled: true },
  Debug: { enabled: false },
  Sync: {
    dir: 'medic-queue',                    // the write-ahead queue, inside this resource's folder
    persistDebounceMs: 2000,               // fsync at most 2 s after a write (and on resource stop)
    batchSize: 100,
    maxQueued: 50000,                      // above this, only vitals samples are dropped (oldest first)
    backoff: { baseMs: 1000, maxMs: 60000 },
    unauthorizedRetryMs: 30000,            // a refused key: retry every 30 s, keep everything
    timeoutMs: 30000,
  },
};

Config.Dispatch = {
  url: GetConvar('dt_url', ''),
  key: GetConvar('dt_key', ''),
};
