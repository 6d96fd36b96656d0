-- Loads the built resource's config.lua and client.lua into the stand-in, then does what a player
-- and other client scripts do: status keys, the panic button, ps-dispatch's CustomAlert, an alarm
-- and its end. Prints the record as JSON. Usage: lua5.4 client-run.lua <resource dir>
package.path = arg[0]:gsub('[^/]+$', '') .. '?.lua;' .. package.path
local fivem = require('standin')
local dir = arg[1]
fivem.load(dir .. '/config.lua')
fivem.load(dir .. '/client.lua')

fivem.commands['status'](0, { '3' }, 'status 3')
fivem.commands['dt_status_2'](0, {}, 'dt_status_2')
fivem.commands['panik'](0, {}, 'panik')
exports['ps-dispatch']:CustomAlert({
  message = 'Schüsse gemeldet', codeName = 'shooting', code = '10-11', icon = 'fas fa-gun', priority = 2,
  coords = { x = 25.5, y = -1347.25, z = 29.5 }, street = 'Innocence Blvd', gender = true, camId = 12,
  firstColor = 'Rot', model = 'Sultan', plate = 'AB 123', jobs = { 'leo', 'ems' }, sprite = 110, flash = false,
})
exports['ps-dispatch']:CustomAlert({ message = 'Verdächtige Person', code = '10-66' }) -- no coords: the player's position
fivem.netHandlers['dispatch-terminal:alarm']({
  callsign = 'RTW 1', number = 7, keyword = 'RD 1', priority = 1, address = 'Alta Street 5',
  message = 'Person gestürzt', units = { 'RTW 1', 'NEF 2' }, waypoint = { x = 300, y = -500.5 },
})
fivem.netHandlers['dispatch-terminal:cleared']({ callsign = 'RTW 1', number = 7 })
fivem.netHandlers['dispatch-terminal:result']({ event = 'status', ok = false, status = 409, error = 'not in a unit' })
fivem.dump()
