// The embeddable entry point: importing this module registers <soft-body>. It stays small: three.js,
// the bridge and the wasm are loaded by the first element that comes near the viewport.
//
//   import './src/embed/index.js';   // <soft-body> is now defined
import { defineSoftBody } from './soft_body_element.js';

defineSoftBody();

export { SoftBodyElement, defineSoftBody } from './soft_body_element.js';
export { ATTRIBUTES, SCENES, SOLVER_NAMES } from './attributes.js';
