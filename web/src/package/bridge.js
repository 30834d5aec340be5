// The npm package's "softbody/bridge" entry: the physics alone (the C API mirrored as classes), no
// three.js and no DOM. In a page or worker, sharedSoftbody() loads the module shipped beside this
// file; in node, pass the .wasm bytes: loadSoftbody({ wasmBinary }).
export { Body, Collider, ColliderParam, ErrorCode, Material, POSITION_BASED_SOLVERS, Param, Softbody, SoftbodyError, Solver, Tetra, TetraLimits, ThinParts, World, XPBD_NEO_HOOKEAN_MAX_STIFFNESS, loadSoftbody } from '../softbody.js';
export { compiledWasm, sharedSoftbody, useThreadedBuild } from '../wasm_module.js';
export { BackendError } from '../backend.js';
