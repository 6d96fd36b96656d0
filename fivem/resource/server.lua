-- Hands config.lua's Config to server.js (a local event: clients cannot send it). Sent at load and
-- again at start, whichever server.js hears first; it reads the API key itself from the convar.
TriggerEvent('dispatch-terminal:config', Config)
AddEventHandler('onResourceStart', function(name)
  if name == GetCurrentResourceName() then TriggerEvent('dispatch-terminal:config', Config) end
end)
