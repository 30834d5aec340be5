// Fair input: a grab started in any view drives the same particle, along the same path, in every
// view. It looks like one Body to the Grabber (nearestVertex, positions, grabBegin/Move/End) and
// forwards each call to all lanes that have not exploded.
//
// "The same path" is the pointer's displacement since the press: each view's particle is driven to
// where it was at the press plus that displacement. As long as the views agree (they start
// identical) this is the same absolute target everywhere; once one has drifted (a sagging PBD body,
// a jittering explicit one) it is not teleported to the others' particle, which would be an input
// only that view gets. The release velocity is the same for all.

export class FairGrab {
  // getLanes() returns the current lanes; onError(error) shows a failed call for one lane (the
  // others still get theirs).
  constructor(getLanes, onError) {
    this.getLanes = getLanes;
    this.onError = onError;
    this.primary = 0; // the view the pointer pressed in
    this.held = []; // [{ lane, offset: [x, y, z] }] while grabbing
    this.vertex = -1;
  }

  // The view under the pointer becomes the one whose body the Grabber sees.
  focus(index) {
    if (!this.held.length) this.primary = index;
  }

  get _body() {
    return this.getLanes()[this.primary].body;
  }

  get positions() {
    return this._body.positions;
  }

  nearestVertex(x, y, z) {
    return this._body.nearestVertex(x, y, z);
  }

  // target: where the Grabber wants the particle (it passes the pressed view's particle position).
  grabBegin(vertex, x, y, z) {
    const lanes = this.getLanes();
    const p = lanes[this.primary].body.positions;
    const origin = [p[3 * vertex], p[3 * vertex + 1], p[3 * vertex + 2]];
    this.held = [];
    this.vertex = vertex;
    for (const lane of lanes) {
      if (lane.exploded) continue;
      const q = lane.body.positions;
      const offset = [q[3 * vertex] - origin[0], q[3 * vertex + 1] - origin[1], q[3 * vertex + 2] - origin[2]];
      try {
        lane.body.grabBegin(vertex, x + offset[0], y + offset[1], z + offset[2]);
        this.held.push({ lane, offset });
      } catch (error) {
        this.onError(error);
      }
    }
    if (!this.held.length) throw new Error('no view could take the grab');
  }

  grabMove(x, y, z) {
    for (const { lane, offset } of this.held) {
      if (lane.exploded) continue; // frozen: no longer stepped, nothing to drive
      try {
        lane.body.grabMove(x + offset[0], y + offset[1], z + offset[2]);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  grabEnd(vx = 0, vy = 0, vz = 0) {
    const held = this.held;
    this.held = [];
    this.vertex = -1;
    for (const { lane } of held) {
      try {
        lane.body.grabEnd(vx, vy, vz);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  // Forgets the grab without telling the bodies (they were rebuilt or reset, which clears it).
  cancel() {
    this.held = [];
    this.vertex = -1;
  }
}
