-- Dispatch Terminal: calls, time clock, unit status, alarms with GPS waypoint, unit positions and the medic queue for FiveM.
-- server.js is the SDK's game bridge and medic queue, built as one dependency-free file (Node 16).
fx_version 'cerulean'
game 'gta5'
lua54 'yes'

name 'dispatch-terminal'
description 'Dispatch Terminal for FiveM: exports for Lua and JS (calls, clock, unit status, employees, medic), ps-dispatch CustomAlert, status keys, panic button, alarms with waypoint, unit positions for the map'
version '@VERSION@'

-- Resources written for ps-dispatch keep calling exports['ps-dispatch']:CustomAlert(...) and reach this one.
provide 'ps-dispatch'

shared_script 'config.lua'
server_scripts {
  'server.js',
  'server.lua',
}
client_script 'client.lua'
