-- Runs a server script of a resource author (the README's Lua example) against the stand-in:
-- every call of exports['dispatch-terminal'] is recorded with its arguments (a callback as
-- {"$function": true}) and its callback answered; then server.lua, which hands Config over.
-- Prints the record as JSON. Usage: lua5.4 exports-run.lua <resource dir> <script.lua>
package.path = arg[0]:gsub('[^/]+$', '') .. '?.lua;' .. package.path
local fivem = require('standin')
source = 3 -- a player's server id, as in a net event handler
local printed = {}
print = function(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
  printed[#printed + 1] = table.concat(parts, ' ')
end
fivem.load(arg[1] .. '/config.lua')
fivem.load(arg[1] .. '/server.lua')
fivem.handlers['onResourceStart']('dispatch-terminal')
fivem.load(arg[2])
fivem.record[#fivem.record + 1] = { kind = 'printed', lines = printed }
fivem.dump()
