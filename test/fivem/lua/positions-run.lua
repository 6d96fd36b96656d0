-- Loads the built resource's config.lua and client.lua into the stand-in and plays a player's
-- session on the game clock: outside a unit, told a unit by the server, standing, walking, moving
-- twice within one interval, getting into a vehicle, parked, told no unit. Each step is marked in
-- the record. Prints the record as JSON.
-- Usage: lua5.4 positions-run.lua <resource dir> [Config.Positions.intervalMs]
package.path = arg[0]:gsub('[^/]+$', '') .. '?.lua;' .. package.path
local fivem = require('standin')
fivem.timed = true
fivem.load(arg[1] .. '/config.lua')
if arg[2] then Config.Positions.intervalMs = tonumber(arg[2]) end
fivem.load(arg[1] .. '/client.lua')

local function mark(label) fivem.record[#fivem.record + 1] = { kind = 'mark', label = label, at = fivem.clock } end
local ped = fivem.ped.coords

mark('no unit')
fivem.advance(5000)
mark('in RTW 1')
fivem.netHandlers['dispatch-terminal:unit']('RTW 1')
fivem.advance(1600)
mark('standing')
fivem.advance(6000)
mark('walked 5 m')
ped.x = ped.x + 5
fivem.advance(1600)
mark('walked 1 m')
ped.x = ped.x + 1
fivem.advance(1600)
mark('moving every 250 ms')
for _ = 1, 16 do
  ped.y = ped.y + 3
  fivem.advance(250)
end
mark('in a vehicle')
fivem.vehicle = { coords = { x = 400.25, y = -900.5, z = 29.25 }, heading = 181.5, speed = 13.9 }
fivem.advance(1600)
mark('parked')
fivem.vehicle.speed = 0.0
fivem.advance(25000)
mark('left the unit')
fivem.netHandlers['dispatch-terminal:unit'](nil)
fivem.advance(15000)
mark('end')
fivem.dump()
