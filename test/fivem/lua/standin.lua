-- A small stand-in of the FiveM natives the resource's Lua files use (client.lua, config.lua,
-- server.lua), recording what they do; and a JSON encoder so the test reads the record.
-- Not a real FiveM: no game, no network. Used by test/fivem/lua.test.ts.
local M = { record = {}, commands = {}, mappings = {}, netHandlers = {}, handlers = {}, clientExports = {} }

-- Game time (GetGameTimer) and threads: CreateThread makes a coroutine that runs only when the
-- script advances the clock (M.advance), each Wait(ms) resuming it ms later. With M.timed set,
-- server events are recorded with the time they were sent.
M.clock = 0
M.timed = false
M.threads = {}

local function add(t)
  if M.timed and t.kind == 'serverEvent' then t.at = M.clock end
  M.record[#M.record + 1] = t
end

function GetGameTimer() return M.clock end
function CreateThread(fn) M.threads[#M.threads + 1] = { co = coroutine.create(fn), wake = M.clock } end
function Wait(ms) coroutine.yield(ms or 0) end
function M.advance(ms)
  local target = M.clock + ms
  while true do
    local due = nil
    for _, th in ipairs(M.threads) do
      if not th.dead and th.wake <= target and (due == nil or th.wake < due.wake) then due = th end
    end
    if due == nil then break end
    M.clock = math.max(M.clock, due.wake)
    local ok, waited = coroutine.resume(due.co)
    if not ok then error(waited) end
    if coroutine.status(due.co) == 'dead' then due.dead = true else due.wake = M.clock + math.max(1, waited or 0) end
  end
  M.clock = target
end

-- The player's ped and, when M.vehicle is set, the vehicle they sit in (entity 42).
M.ped = { coords = { x = 215.5, y = -810.25, z = 30.75 }, heading = 90.0, speed = 0.0 }
M.vehicle = nil
local function entity(e) return (e == 42 and M.vehicle) or M.ped end

local function encode(v)
  local t = type(v)
  if v == nil then return 'null' end
  if t == 'boolean' then return tostring(v) end
  if t == 'number' then
    if v ~= v or v == math.huge or v == -math.huge then return 'null' end
    return math.type(v) == 'integer' and tostring(v) or string.format('%.17g', v)
  end
  if t == 'string' then
    return '"' .. v:gsub('[%c"\\]', function(c)
      local map = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
      return map[c] or string.format('\\u%04x', c:byte())
    end) .. '"'
  end
  if t == 'function' then return '{"$function":true}' end
  if t == 'table' then
    local n = 0
    for _ in pairs(v) do n = n + 1 end
    if n > 0 and n == #v then
      local out = {}
      for i = 1, #v do out[i] = encode(v[i]) end
      return '[' .. table.concat(out, ',') .. ']'
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do
      local value = v[k]
      if value == nil then value = v[tonumber(k)] end
      out[#out + 1] = encode(k) .. ':' .. encode(value)
    end
    return '{' .. table.concat(out, ',') .. '}'
  end
  return '"<' .. t .. '>"'
end
M.encode = encode

-- Natives (globals, as FiveM has them).
function GetCurrentResourceName() return 'dispatch-terminal' end
function RegisterCommand(name, fn, restricted) M.commands[name] = fn end
function RegisterKeyMapping(command, description, mapper, key)
  M.mappings[#M.mappings + 1] = { command = command, description = description, mapper = mapper, key = key }
end
function RegisterNetEvent(name, fn) M.netHandlers[name] = fn or true end
function AddEventHandler(name, fn) M.handlers[name] = fn end
function TriggerServerEvent(name, ...) add({ kind = 'serverEvent', name = name, args = { ... } }) end
function TriggerEvent(name, ...) add({ kind = 'event', name = name, args = { ... } }) end
function SetNewWaypoint(x, y) add({ kind = 'waypoint', x = x, y = y }) end
function SetWaypointOff() add({ kind = 'waypointOff' }) end
function BeginTextCommandThefeedPost() end
function AddTextComponentSubstringPlayerName(text) add({ kind = 'notify', text = text }) end
function EndTextCommandThefeedPostTicker() end
function PlaySoundFrontend() end
function PlayerPedId() return 1 end
function GetVehiclePedIsIn(ped, last) return M.vehicle and 42 or 0 end
function GetEntityCoords(e) local c = entity(e).coords return { x = c.x, y = c.y, z = c.z } end
function GetEntityHeading(e) return entity(e).heading end
function GetEntitySpeed(e) return entity(e).speed end
function GetStreetNameAtCoord() return 1234, 0 end
function GetStreetNameFromHashKey(hash) return hash == 1234 and 'Alta Street' or '' end
function IsPedMale() return true end

-- `exports`: called as exports(name, fn) it registers this resource's export; indexed by a
-- resource name it gives that resource's exports, called with `:` (the self argument is dropped).
-- Exports of this resource (and of 'ps-dispatch', which it provides) run what the resource
-- registered; any other export call is recorded, its callback answered with M.answer(name, args).
M.answer = function() return { ok = true, data = {} } end
exports = setmetatable({}, {
  __call = function(_, name, fn) M.clientExports[name] = fn end,
  __index = function(_, resource)
    return setmetatable({}, { __index = function(_, name)
      return function(self, ...)
        local own = (resource == 'dispatch-terminal' or resource == 'ps-dispatch') and M.clientExports[name]
        if own then return own(...) end
        local args = { ... }
        add({ kind = 'export', resource = resource, name = name, args = args, n = select('#', ...) })
        local cb = args[select('#', ...)]
        if type(cb) == 'function' then cb(M.answer(name, args)) end
        return #M.record
      end
    end })
  end,
})

function M.load(file)
  local chunk, err = loadfile(file, 't')
  if not chunk then error(err) end
  chunk()
end

function M.dump() io.write(encode({ record = M.record, commands = (function()
  local names = {}
  for k in pairs(M.commands) do names[#names + 1] = k end
  table.sort(names)
  return names
end)(), mappings = M.mappings, netEvents = (function()
  local names = {}
  for k in pairs(M.netHandlers) do names[#names + 1] = k end
  table.sort(names)
  return names
end)(), clientExports = (function()
  local names = {}
  for k in pairs(M.clientExports) do names[#names + 1] = k end
  table.sort(names)
  return names
end)() }), '\n') end

return M
