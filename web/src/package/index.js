// The npm package's main entry: the bridge and the <soft-body> element. Importing it in a browser
// registers <soft-body> (three.js, the peer dependency, is loaded by the first figure that comes
// near the viewport).
import { defineSoftBody } from '../embed/soft_body_element.js';

export * from './bridge.js';
export { SoftBodyElement, defineSoftBody } from '../embed/soft_body_element.js';
export { ATTRIBUTES, SCENES, SOLVER_NAMES } from '../embed/attributes.js';

if (typeof customElements !== 'undefined') defineSoftBody();
