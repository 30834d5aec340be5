// The bridge's rigid obstacles (sb_collider_*): split from softbody.js, which re-exports Collider.
import * as arg from './bridge_args.js';
import { ColliderParam, ErrorCode } from './bridge_tables.js';

// A rigid obstacle (sb_collider_*), made by World.addCollider.
export class Collider {
  constructor(world, handle) {
    this.world = world;
    this.sb = world.sb;
    this.handle = handle;
  }

  // position: [x, y, z] m; rotation: a quaternion [x, y, z, w]. The next step sweeps the collider
  // there from where it was (so it pushes, carries and throws); teleport puts it there at once.
  setPose(position, rotation = [0, 0, 0, 1], options) {
    const where = 'Collider.setPose';
    const { teleport = false } = arg.options(where, options);
    arg.vector(where, 'position', position);
    arg.vector(where, 'rotation', rotation, 4);
    arg.boolean(where, 'teleport', teleport);
    this.sb.check(this.sb.M._sb_collider_set_pose(this.world.handle, this.handle, ...position, ...rotation, teleport ? 1 : 0));
  }

  setFriction(friction) {
    arg.number('Collider.setFriction', 'friction', friction);
    this.sb.check(this.sb.M._sb_collider_set_friction(this.world.handle, this.handle, friction));
  }

  // name: 'friction' ([0, 10], default 0.5) or 'restitution' ([0, 1], default 0.2).
  setParam(name, value) {
    arg.oneOf('Collider.setParam', 'name', name, ColliderParam, 'collider parameter', ErrorCode.UNKNOWN_PARAM);
    arg.number('Collider.setParam', 'value', value);
    this.sb.check(this.sb.M._sb_collider_set_param(this.world.handle, this.handle, ColliderParam[name], value));
  }
  getParam(name) {
    arg.oneOf('Collider.getParam', 'name', name, ColliderParam, 'collider parameter', ErrorCode.UNKNOWN_PARAM);
    const value = this.sb.M._sb_collider_get_param(this.world.handle, this.handle, ColliderParam[name]);
    if (Number.isNaN(value)) this.sb.check(this.sb.M._sb_last_error_code());
    return value;
  }

  // Mesh colliders: true when closed (a solid), false when a shell.
  get isSolid() {
    return this.sb.check(this.sb.M._sb_collider_mesh_is_solid(this.world.handle, this.handle)) === 1;
  }

  destroy() {
    this.sb.check(this.sb.M._sb_collider_destroy(this.world.handle, this.handle));
  }
}
