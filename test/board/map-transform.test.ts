import t from 'tap';
import { transformOf } from '../../contract/map.ts';
import { gridExtent, gridTransform, imageTransform, nearestPostal } from '../../board/src/tabs/map/transform.ts';
import { findOnMap } from '../../board/src/tabs/map/search.ts';

// The map's arithmetic on its own: a two-point calibration places game coordinates on the image
// per axis; the grid is the game plane; a GTA heading becomes a screen rotation; search and nearest postal.

t.test('a calibrated image places a known game coordinate at the expected pixel', async (t) => {
  // An 8192×8192 image: game (−4000, 8000) at pixel (1000, 500), game (4000, −4000) at (7000, 9500).
  const points = [{ px: 1000, py: 500, x: -4000, y: 8000 }, { px: 7000, py: 9500, x: 4000, y: -4000 }];
  const tr = imageTransform(points)!;
  t.ok(tr, 'a calibration of two points that differ on both axes');
  // x: 6000 px per 8000 units → 0.75 px/unit; y: 9000 px per −12000 units → −0.75 px/unit.
  // Game (0, 0) → px 1000 + 0.75·4000 = 4000; py 500 + 0.75·8000 = 6500.
  t.same(tr.toMap(0, 0), { lat: -6500, lng: 4000 }, 'the image pixel (4000, 6500); lat is −py');
  t.same(tr.toMap(-4000, 8000), { lat: -500, lng: 1000 }, 'the first point itself');
  t.same(tr.toMap(4000, -4000), { lat: -9500, lng: 7000 }, 'the second point itself');
  const back = tr.toGame(-6500, 4000);
  t.ok(Math.abs(back.x) < 1e-9 && Math.abs(back.y) < 1e-9, 'and back');
  t.equal(tr.scale, 0.75);
  t.equal(tr.screenAngle(0), 0, 'heading 0 (north) points up on an image whose north is up');
  t.equal(tr.screenAngle(90), 270, 'heading 90 (west in GTA) points left');
  t.equal(Math.round(tr.screenAngle(180)), 180, 'south points down');
  // An image upside down (py grows with y): north points down.
  const flipped = imageTransform([{ px: 0, py: 0, x: 0, y: 0 }, { px: 100, py: 100, x: 100, y: 100 }])!;
  t.equal(Math.round(flipped.screenAngle(0)), 180, 'on a flipped image north points down');
});

t.test('calibrations that cannot place both axes are refused', async (t) => {
  t.equal(transformOf([{ px: 0, py: 0, x: 5, y: 0 }, { px: 10, py: 10, x: 5, y: 10 }]), null, 'same x twice');
  t.equal(transformOf([{ px: 0, py: 0, x: 0, y: 0 }, { px: 0, py: 10, x: 10, y: 10 }]), null, 'same px twice: no scale');
  t.equal(imageTransform([]), null);
});

t.test('the grid is the game plane, north up; its extent covers the default map and the data', async (t) => {
  t.same(gridTransform.toMap(100, -200), { lat: -200, lng: 100 });
  t.equal(gridTransform.screenAngle(0), 0);
  t.equal(gridTransform.screenAngle(90), 270);
  t.equal(gridTransform.screenAngle(270), 90, 'east points right');
  t.same(gridExtent([]), { minX: -4000, maxX: 5000, minY: -4000, maxY: 9000 }, 'the default map, rounded out to 1000');
  t.same(gridExtent([{ x: 12_345, y: -6100 }]), { minX: -4000, maxX: 13000, minY: -7000, maxY: 9000 }, 'widened to the data');
});

t.test('search: PLZ, bare numbers and callsigns; the nearest postal', async (t) => {
  const postals = [{ code: '101', x: 10, y: 20 }, { code: '7001A', x: 500, y: 500 }];
  const units = ['RTW-1', 'NEF-1'];
  t.same(findOnMap('PLZ 101', postals, units), { kind: 'postal', postal: postals[0] });
  t.same(findOnMap('plz:101', postals, units), { kind: 'postal', postal: postals[0] });
  t.same(findOnMap('101', postals, units), { kind: 'postal', postal: postals[0] });
  t.same(findOnMap('postal 7001a', postals, units), { kind: 'postal', postal: postals[1] }, 'case aside');
  t.same(findOnMap('rtw 1', postals, units), { kind: 'unit', callsign: 'RTW-1' }, 'spaces and dashes aside');
  t.same(findOnMap('7001A', postals, units), { kind: 'postal', postal: postals[1] }, 'a code that is no callsign');
  t.equal(findOnMap('PLZ 999', postals, units), null);
  t.equal(findOnMap('  ', postals, units), null);
  t.equal(nearestPostal(postals, 400, 450)?.code, '7001A');
  t.equal(nearestPostal([], 0, 0), null);
});
