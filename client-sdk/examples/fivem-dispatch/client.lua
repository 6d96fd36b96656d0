-- Dispatch Terminal alarms, game client side: shows the alarm to the player and sets the GPS waypoint.

local current = nil -- { callsign, number } of the alarm whose waypoint is set

local function notify(text)
  BeginTextCommandThefeedPost('STRING')
  AddTextComponentSubstringPlayerName(text)
  EndTextCommandThefeedPostTicker(true, true)
end

RegisterNetEvent('dt:dispatch:alarm', function(alarm)
  PlaySoundFrontend(-1, 'TIMER_STOP', 'HUD_MINI_GAME_SOUNDSET', true)
  local lines = {
    ('~r~ALARM~s~ %s — Einsatz %d'):format(alarm.callsign, alarm.number),
    ('~y~%s~s~ (Priorität %d)'):format(alarm.keyword, alarm.priority),
  }
  if alarm.address then lines[#lines + 1] = alarm.address end
  if alarm.message then lines[#lines + 1] = alarm.message end
  lines[#lines + 1] = ('Einheiten: %s'):format(table.concat(alarm.units, ', '))
  notify(table.concat(lines, '~n~'))
  TriggerEvent('chat:addMessage', { color = { 255, 80, 80 }, args = { 'ALARM ' .. alarm.callsign, ('%s, %s'):format(alarm.keyword, alarm.address or '') } })
  if alarm.waypoint then
    SetNewWaypoint(alarm.waypoint.x + 0.0, alarm.waypoint.y + 0.0)
    current = { callsign = alarm.callsign, number = alarm.number }
  end
end)

RegisterNetEvent('dt:dispatch:cleared', function(cleared)
  if current and current.callsign == cleared.callsign and current.number == cleared.number then
    SetWaypointOff()
    current = nil
    notify(('Einsatz %d für %s beendet'):format(cleared.number, cleared.callsign))
  end
end)
