-- Dispatch Terminal: alarms for the crews in the game.
-- Server side: the game bridge (dt-client/game.cjs) polls the unit alarms; client side shows them and sets the GPS waypoint.
fx_version 'cerulean'
game 'gta5'

name 'dt-dispatch'
description 'Shows a Dispatch Terminal alarm (keyword, priority, address, message, units) to the players in the alarmed unit and sets a GPS waypoint to the incident'
version '0.1.0'

server_script 'config.js'
server_script 'server.js'
client_script 'client.lua'
