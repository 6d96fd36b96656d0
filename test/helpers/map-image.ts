import { createCanvas } from '@napi-rs/canvas';

/** An 800×600 PNG "map" for the map tests: a grid and a land mass, so a screenshot shows where markers sit. */
export function mapImage(): Buffer {
  const canvas = createCanvas(800, 600);
  const g = canvas.getContext('2d');
  g.fillStyle = '#1f3b4d';
  g.fillRect(0, 0, 800, 600);
  g.strokeStyle = '#6c8ea4';
  for (let x = 0; x <= 800; x += 100) { g.beginPath(); g.moveTo(x, 0); g.lineTo(x, 600); g.stroke(); }
  for (let y = 0; y <= 600; y += 100) { g.beginPath(); g.moveTo(0, y); g.lineTo(800, y); g.stroke(); }
  g.fillStyle = '#c8d6a0';
  g.fillRect(150, 120, 420, 330);
  return canvas.toBuffer('image/png');
}
