-- Dispatch Terminal, game client side: status keys, the panic button, the dispatcher's alarm with
-- a GPS waypoint, ps-dispatch's CustomAlert, and the position of the player's unit. Everything goes to the server as an event; the
-- server checks it and reports it with its key (the client never has one).

local RESOURCE = GetCurrentResourceName()
local current = nil -- { callsign, number } of the alarm whose waypoint is set

local function notify(text)
  BeginTextCommandThefeedPost('STRING')
  AddTextComponentSubstringPlayerName(text)
  EndTextCommandThefeedPostTicker(true, true)
end

local function here()
  local coords = GetEntityCoords(PlayerPedId())
  local street = GetStreetNameFromHashKey(GetStreetNameAtCoord(coords.x, coords.y, coords.z))
  return { x = coords.x + 0.0, y = coords.y + 0.0, z = coords.z + 0.0, street = street }
end

-- Status keys: /status <code>, and one key mapping per configured status.
if Config.StatusKeys and Config.StatusKeys.enabled then
  RegisterCommand('status', function(_, args)
    if args[1] then TriggerServerEvent('dispatch-terminal:status', args[1]) end
  end, false)
  for _, s in ipairs(Config.StatusKeys.keys or {}) do
    local command = 'dt_status_' .. s.status
    RegisterCommand(command, function() TriggerServerEvent('dispatch-terminal:status', s.status) end, false)
    RegisterKeyMapping(command, ('Status %s: %s'):format(s.status, s.label or ''), 'keyboard', s.key or '')
  end
end

-- The panic button: /panik (and a key, when Config.Panic.key names one).
if Config.Panic and Config.Panic.enabled then
  RegisterCommand('panik', function() TriggerServerEvent('dispatch-terminal:panic', here()) end, false)
  RegisterKeyMapping('panik', 'Panikknopf', 'keyboard', Config.Panic.key or '')
end

-- ps-dispatch's client export: the payload goes to the server, which maps it onto a call.
exports('CustomAlert', function(data)
  if type(data) ~= 'table' then return end
  local payload = {}
  for k, v in pairs(data) do payload[k] = v end
  if payload.coords == nil then
    local p = here()
    payload.coords = { x = p.x, y = p.y, z = p.z }
    payload.street = payload.street or p.street
  else
    payload.coords = { x = payload.coords.x + 0.0, y = payload.coords.y + 0.0, z = (payload.coords.z or 0.0) + 0.0 }
  end
  if payload.gender == true then payload.gender = IsPedMale(PlayerPedId()) and 'männlich' or 'weiblich' end
  TriggerServerEvent('dispatch-terminal:customAlert', payload)
end)

-- Positions: the server says which unit the player occupies (`dispatch-terminal:unit`, nil for none);
-- while in one, the vehicle's (else the player's) position goes to the server every interval when it
-- moved more than MOVED metres or turned more than TURNED degrees, and every KEEPALIVE ms at least.
-- The server, not this script, decides the unit the position belongs to.
if Config.Positions and Config.Positions.enabled then
  local interval = math.floor(math.max(1000, math.min(5000, tonumber(Config.Positions.intervalMs) or 1500)))
  local MOVED, TURNED, KEEPALIVE = 2.0, 15.0, 10000
  local unit = nil
  local last = nil -- { x, y, z, heading, at } of the last position sent

  RegisterNetEvent('dispatch-terminal:unit', function(callsign)
    if callsign ~= unit then last = nil end
    unit = callsign
  end)

  local function turned(a, b)
    local d = math.abs(a - b) % 360
    return math.min(d, 360 - d)
  end

  CreateThread(function()
    TriggerServerEvent('dispatch-terminal:positionsReady')
    while true do
      Wait(interval)
      if unit then
        local ped = PlayerPedId()
        local vehicle = GetVehiclePedIsIn(ped, false)
        local entity = (vehicle and vehicle ~= 0) and vehicle or ped
        local c = GetEntityCoords(entity)
        local heading = GetEntityHeading(entity) + 0.0
        local now = GetGameTimer()
        local due = last == nil or now - last.at >= KEEPALIVE
          or math.sqrt((c.x - last.x) ^ 2 + (c.y - last.y) ^ 2 + (c.z - last.z) ^ 2) > MOVED
          or turned(heading, last.heading) > TURNED
        if due then
          TriggerServerEvent('dispatch-terminal:position', {
            x = c.x + 0.0, y = c.y + 0.0, z = c.z + 0.0, heading = heading, speed = GetEntitySpeed(entity) + 0.0,
          })
          last = { x = c.x, y = c.y, z = c.z, heading = heading, at = now }
        end
      end
    end
  end)
end

RegisterNetEvent('dispatch-terminal:alarm', function(alarm)
  PlaySoundFrontend(-1, 'TIMER_STOP', 'HUD_MINI_GAME_SOUNDSET', true)
  local lines = {
    ('~r~ALARM~s~ %s — Einsatz %d'):format(alarm.callsign, alarm.number),
    ('~y~%s~s~ (Priorität %d)'):format(alarm.keyword, alarm.priority),
  }
  if alarm.address then lines[#lines + 1] = alarm.address end
  if alarm.message then lines[#lines + 1] = alarm.message end
  lines[#lines + 1] = ('Einheiten: %s'):format(table.concat(alarm.units or {}, ', '))
  notify(table.concat(lines, '~n~'))
  if alarm.waypoint then
    SetNewWaypoint(alarm.waypoint.x + 0.0, alarm.waypoint.y + 0.0)
    current = { callsign = alarm.callsign, number = alarm.number }
  end
end)

RegisterNetEvent('dispatch-terminal:cleared', function(cleared)
  if current and current.callsign == cleared.callsign and current.number == cleared.number then
    SetWaypointOff()
    current = nil
    notify(('Einsatz %d für %s beendet'):format(cleared.number, cleared.callsign))
  end
end)

-- What the server answered to a status key or the panic button.
RegisterNetEvent('dispatch-terminal:result', function(r)
  if r.ok then
    if r.event == 'panic' then notify('~r~Panik~s~ gemeldet') end
  else
    notify(('~r~%s~s~: %s'):format(RESOURCE, r.error or 'fehlgeschlagen'))
  end
end)
