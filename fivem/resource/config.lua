-- Dispatch Terminal settings. Shared: players' games load this file too, so no secret belongs here.
-- The API key is read on the server only, from the convar in server.cfg:
--   set dispatch_terminal_key "stmp_..."     <- `set`, never `setr` (setr sends it to every player)
Config = {}

-- The server root; the convar dispatch_terminal_url wins when it is set.
Config.Url = 'http://127.0.0.1:3000'

-- The dispatcher's alarm: shown to the players in the alarmed unit's crew, with a GPS waypoint.
Config.Alarms = { enabled = true, pollMs = 500 }

-- Status keys for the unit the player occupies (keys can be changed in the game's settings, FiveM section).
Config.StatusKeys = {
  enabled = true,
  keys = {
    { status = '1', key = 'NUMPAD1', label = 'Einsatzbereit über Funk' },
    { status = '2', key = 'NUMPAD2', label = 'Einsatzbereit auf Wache' },
    { status = '3', key = 'NUMPAD3', label = 'Einsatz übernommen' },
    { status = '4', key = 'NUMPAD4', label = 'Am Einsatzort' },
    { status = '6', key = 'NUMPAD6', label = 'Nicht einsatzbereit' },
  },
}

-- The panic button (command /panik, no key by default): a call of kind "panik" at the player's position.
Config.Panic = { enabled = true, key = '' }

-- exports['ps-dispatch']:CustomAlert(...) from client scripts becomes a call on the board.
Config.CustomAlert = { enabled = true }

-- Unit positions for the board's map: while a player occupies a unit, their vehicle's (or their own)
-- position goes to the server every intervalMs (1000 to 5000) when it moved, else every 10 s; the
-- server sends one batch for all units. Needs the key's scope units:unit.ingame_position.
Config.Positions = { enabled = true, intervalMs = 1500 }

-- Status keys, panic button and CustomAlert from one player: at most this many per minute.
Config.PlayerEventsPerMinute = 12

-- The medic queue (patient files); needs an unscoped key. Further settings as Config.Medic of the SDK.
Config.Medic = { enabled = false }
