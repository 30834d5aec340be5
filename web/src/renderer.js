// The WebGL renderer every page makes, and the one decision about its cost: on a software
// rasterizer (SwiftShader, llvmpipe: no usable GPU, a VM, a headless browser) MSAA, a 2048-texel
// shadow map and the environment map cost seconds per frame, so there the cheap settings are used
// whether or not ?test asked for them. MSAA is fixed when a context is made, so the first context is
// made without it; with a GPU and full quality wanted, it is replaced by an antialiased one.
import * as THREE from 'three';

function softwareRenderer(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}

// options.lowCost: cheap rendering asked for. Returns { renderer, lowCost (the settings to use),
// software (a CPU rasterizer was found) }.
export function createRenderer({ lowCost = false } = {}) {
  const settings = { powerPreference: 'high-performance' };
  let renderer = new THREE.WebGLRenderer({ ...settings, antialias: false });
  const software = softwareRenderer(renderer.getContext());
  if (!lowCost && !software) {
    renderer.dispose();
    renderer.forceContextLoss();
    renderer = new THREE.WebGLRenderer({ ...settings, antialias: true });
  }
  return { renderer, lowCost: lowCost || software, software };
}
