// Keyboard use of a <soft-body> figure, for readers without a pointer: the element is in the tab
// order, and while it has focus itself (not one of its buttons or sliders)
//   Shift+arrows turn the camera, arrows pan it (three.js OrbitControls' own keys), + and − zoom,
//   G grabs the top of the body (every view's, as a pointer grab does), arrows then move it and
//   G or Escape lets go, R resets, Space plays or pauses.
const STEP = 0.1; // m a grabbed particle moves per arrow press (a tenth of the 1 m scenes)
const ZOOM = 0.85; // distance factor per + press

export const KEY_HELP = 'Keys: Shift+arrows turn, arrows pan, + and − zoom, G grabs the top of the body and arrows move it, R resets, Space plays or pauses.';

// element: the SoftBodyElement (its _view once loaded), which receives the keys. Returns
// { attach(view) }, called once the figure's view (and its orbit controls) exists.
export function wireKeys(element) {
  let held = null; // { at: [x, y, z] } while a key grab holds the body
  let orbitKeys = null; // OrbitControls' keydown handler, called only for keys meant for the view

  const view = () => element._view;
  const release = () => {
    if (held && view()?.fairGrab.held.length) view().fairGrab.grabEnd(0, 0, 0);
    held = null;
  };

  function grab() {
    const v = view();
    const lane = v?.lanes[0];
    if (!lane || lane.exploded) return;
    // The middle of the top of the first view's body: what a reader would reach for to lift it.
    const p = lane.body.positions;
    const n = p.length / 3;
    let high = -Infinity;
    let cx = 0;
    let cz = 0;
    for (let i = 0; i < n; i++) {
      high = Math.max(high, p[3 * i + 1]);
      cx += p[3 * i] / n;
      cz += p[3 * i + 2] / n;
    }
    let top = 0;
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      const score = Math.hypot(p[3 * i] - cx, p[3 * i + 2] - cz) + 4 * (high - p[3 * i + 1]); // near the axis, near the top
      if (score < best) (best = score), (top = i);
    }
    const at = [p[3 * top], p[3 * top + 1], p[3 * top + 2]];
    v.fairGrab.focus(0);
    v.fairGrab.grabBegin(top, ...at);
    held = { at };
  }

  function move(key) {
    const v = view();
    if (!v.fairGrab.held.length) return void (held = null); // rebuilt or reset meanwhile
    const right = [v.camera.matrixWorld.elements[0], 0, v.camera.matrixWorld.elements[2]];
    const length = Math.hypot(right[0], right[2]) || 1;
    const d = { ArrowUp: [0, STEP, 0], ArrowDown: [0, -STEP, 0], ArrowLeft: right.map((c) => (-STEP * c) / length), ArrowRight: right.map((c) => (STEP * c) / length) }[key];
    held.at = held.at.map((c, i) => c + d[i]);
    v.fairGrab.grabMove(...held.at);
  }

  function zoom(factor) {
    const { camera, controls } = view();
    const offset = camera.position.clone().sub(controls.target).multiplyScalar(factor);
    const distance = Math.min(controls.maxDistance, Math.max(controls.minDistance, offset.length()));
    camera.position.copy(controls.target).add(offset.setLength(distance));
    controls.update();
  }

  element.addEventListener('keydown', (event) => {
    const v = view();
    if (!v || event.composedPath()[0] !== element || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    // interactive="false" takes no grab or camera keys (only Space and R), disable-zoom no + −.
    const still = !element.interactive;
    if (still && key !== ' ' && key !== 'r' && key !== 'R') return;
    if (element.disableZoom && (key === '+' || key === '=' || key === '-' || key === '_')) return;
    let handled = true;
    if (held && key.startsWith('Arrow') && !event.shiftKey) move(key);
    else if (key === 'g' || key === 'G') held ? release() : grab();
    else if (key === 'Escape' && held) release();
    else if (key === 'r' || key === 'R') (release(), element.reset());
    else if (key === ' ') element.paused ? element.play() : element.pause();
    else if (key === '+' || key === '=') zoom(ZOOM);
    else if (key === '-' || key === '_') zoom(1 / ZOOM);
    else if (key.startsWith('Arrow')) orbitKeys?.(event); // pan, or turn with Shift
    else handled = false;
    if (handled) event.preventDefault(); // arrows and Space would scroll the page
  });
  element.addEventListener('blur', release);
  return {
    attach({ controls }) {
      controls.keyRotateSpeed = 12; // ~12° per press on a 360 px figure (the default turns ~1°)
      // OrbitControls would listen on the element and also take the arrows of its sliders (keys
      // bubble up from the shadow tree): its handler is kept and called from the listener above.
      controls.listenToKeyEvents({ addEventListener: (type, handler) => (orbitKeys = handler), removeEventListener() {} });
    },
  };
}
