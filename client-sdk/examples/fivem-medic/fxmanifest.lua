-- Dispatch Terminal: medic patient files from your ambulance script.
-- Server side only: the write-ahead queue (dt-client/medic.cjs) and the game bridge (dt-client/game.cjs).
fx_version 'cerulean'
game 'gta5'

name 'dt-medic'
description 'Sends patients, injuries, treatments, vitals, ECG, lab and X-ray results to the Dispatch Terminal patient file; loses nothing on the way'
version '0.1.0'

server_script 'config.js'
server_script 'server.js'
