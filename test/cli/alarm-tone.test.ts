import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alarmToneWav, createTonePlayer, parsePlayer, systemPlayer } from '../../client-sdk/alarm-tone.ts';

const dir = mkdtempSync(join(tmpdir(), 'dt-tone-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function fakeProgram(path: string, script = 'exit 0', executable = true) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, executable ? 0o755 : 0o644);
}

t.test('the tone is a one-second 16-bit mono PCM WAV that fades in and out', async (t) => {
  const wav = alarmToneWav(16_000);
  t.equal(wav.toString('ascii', 0, 4), 'RIFF');
  t.equal(wav.toString('ascii', 8, 16), 'WAVEfmt ');
  t.same([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)], [1, 1, 16_000, 16], 'PCM, mono, 16 kHz, 16 bit');
  t.equal(wav.toString('ascii', 36, 40), 'data');
  t.equal(wav.readUInt32LE(40), 32_000, 'one second of samples');
  t.equal(wav.readUInt32LE(4), wav.length - 8, 'RIFF size');
  const samples = Array.from({ length: 16_000 }, (_, i) => wav.readInt16LE(44 + i * 2));
  t.equal(samples[0], 0, 'starts silent (no click)');
  t.ok(Math.abs(samples[4000 - 1]) < 1000, 'each note ends near silence');
  const peak = Math.max(...samples.map(Math.abs));
  t.ok(peak > 0.5 * 32767 && peak <= 0.6 * 32767 + 1, `loud but not clipped (peak ${peak})`);
});

t.test('the system player: paplay, then aplay, then afplay, wherever each is on PATH; none: null', async (t) => {
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  fakeProgram(join(a, 'aplay'));
  fakeProgram(join(b, 'paplay'));
  fakeProgram(join(a, 'afplay'));
  t.same(systemPlayer(`${a}:${b}`), [join(b, 'paplay')], 'paplay is preferred even when later on PATH');
  t.same(systemPlayer(a), [join(a, 'aplay'), '-q'], 'aplay, quietly');
  fakeProgram(join(dir, 'c', 'paplay'), 'exit 0', false);
  t.same(systemPlayer(`${join(dir, 'c')}:${a}`), [join(a, 'aplay'), '-q'], 'a file that cannot be executed is no player');
  t.equal(systemPlayer(join(dir, 'empty')), null);
  t.equal(systemPlayer(''), null);
});

t.test('--player is split at spaces; an empty one is refused', async (t) => {
  t.same(parsePlayer('  mpv   --really-quiet '), ['mpv', '--really-quiet']);
  t.throws(() => parsePlayer('  '), /--player needs a command/);
});

t.test('no player rings the bell; a player that cannot run or fails rings it too and says why', async (t) => {
  const run = async (player: string[] | null) => {
    let bells = 0;
    const warnings: string[] = [];
    const tone = createTonePlayer({ player, bell: () => bells++, warn: (w) => warnings.push(w) });
    await tone.play();
    tone.close();
    return { bells, warnings };
  };
  t.same(await run(null), { bells: 1, warnings: [] }, 'no player: the bell');
  const ok = join(dir, 'ok.sh');
  fakeProgram(ok, 'test -s "$1"');
  t.same(await run([ok]), { bells: 0, warnings: [] }, 'a player that plays the (non-empty) file: no bell');
  const failing = join(dir, 'fail.sh');
  fakeProgram(failing, 'exit 3');
  const failed = await run([failing]);
  t.equal(failed.bells, 1);
  t.match(failed.warnings, [/exited with 3; rang the terminal bell instead/]);
  const missing = await run([join(dir, 'no-such-player')]);
  t.equal(missing.bells, 1, 'once, though both error and exit may be reported');
  t.match(missing.warnings, [/could not run \(.*ENOENT.*\)/]);
});
