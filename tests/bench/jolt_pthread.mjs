// Entry of a pthread worker of jolt-physics' `wasm-multithread` build under node (see loadJolt in
// jolt_box.mjs): the build's own entry never starts the worker side in node, so start it here.
import Jolt from 'jolt-physics/wasm-multithread';

Jolt();
