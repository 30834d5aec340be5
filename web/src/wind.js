// The world's wind (sb_world_set_wind): cloth with Param.dragCoefficient or Param.liftCoefficient
// feels it (docs/physics.md#cloth). A module of its own beside the bridge (softbody.js).
import * as arg from './bridge_args.js';

// wind: [x, y, z] m/s; gust: 0..1, each frame's wind is wind x (1 + gust sin(2 pi t / period)); period: s.
export function setWind(world, wind, { gust = 0, period = 2 } = {}) {
  const where = 'setWind';
  const [x, y, z] = Array.isArray(wind) || ArrayBuffer.isView(wind) ? wind : [];
  arg.numbers(where, { 'wind[0]': x, 'wind[1]': y, 'wind[2]': z, gust, period });
  world.sb.check(world.sb.M._sb_world_set_wind(world.handle, x, y, z, gust, period));
}
