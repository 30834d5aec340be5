// Colliders on the WebGPU backend (web/src/gpu/gpu_colliders.js, contact_wgsl.js) against the wasm
// core, in headless Chromium on its software adapter: a small box dropped onto each shape, and one
// carried by a moving collider. The GPU runs the core's contact rules in the core's order (each
// vertex's particle contact alone; the surface triangles of the face pass in levels that keep the
// core's serial order), so the two differ by float32 rounding: WGSL may contract a * b + c into one
// rounding and its division and sqrt are not correctly rounded (relative 1e-7 per operation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

test('a box dropped on a plane, sphere, box and capsule collider, and one lifted by a moving collider, follows the same path on WebGPU as on wasm', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const mul = (p, q) => [p[3] * q[0] + q[3] * p[0] + p[1] * q[2] - p[2] * q[1], p[3] * q[1] + q[3] * p[1] + p[2] * q[0] - p[0] * q[2],
        p[3] * q[2] + q[3] * p[2] + p[0] * q[1] - p[1] * q[0], p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2]];
      const about = (axis, angle) => [...axis.map((v) => v * Math.sin(angle / 2)), Math.cos(angle / 2)];
      // Shapes placed off the body's symmetry: a capsule parallel to the body's bottom face (or to
      // its edges) meets it along a line, where "the nearest point" is a tie that rounding breaks
      // either way (measured: 4 mm apart 0.1 s after such an impact, 5 um once tilted).
      const scenes = {
        plane: (w) => {
          w.setGround(false);
          w.addCollider({ shape: 'plane', point: [0, 0.2, 0], normal: [0.2, 1, 0] }).setParam('friction', 1);
        },
        sphere: (w) => w.addCollider({ shape: 'sphere', radius: 0.3, center: [0, 0, 0] }),
        box: (w) => w.addCollider({ shape: 'box', halfExtents: [0.3, 0.1, 0.3], center: [0, 0.2, 0] }).setPose([0, 0.2, 0], about([0, 0, 1], 0.1), { teleport: true }),
        capsule: (w) => w.addCollider({ shape: 'capsule', radius: 0.08, halfLength: 0.4, center: [0, 0.2, 0] })
          .setPose([0, 0.2, 0], mul(about([1, 0, 0], 0.15), mul(about([0, 1, 0], 0.3), about([0, 0, 1], Math.PI / 2))), { teleport: true }),
        // A paddle swept sideways, turning and rising each frame: it catches the box and carries it.
        moving: (w) => { w.paddle = w.addCollider({ shape: 'box', halfExtents: [0.4, 0.05, 0.4], center: [0, 0.1, 0] }); },
      };
      const out = {};
      for (const [name, scene] of Object.entries(scenes)) {
        const run = await runBoth({
          frames: 40,
          samples: [10, 40],
          build: (w) => {
            scene(w);
            const b = w.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0.02, 0.6, 0] });
            b.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9 });
            return b;
          },
          frame: (w, f) => w.paddle?.setPose([0.3 * Math.sin(f / 20), 0.1 + 0.005 * f, 0], about([0, 1, 0], f / 20)),
        });
        const lowest = (s) => Math.min(...s.positions.filter((_, i) => i % 3 === 1));
        out[name] = {
          fall: run.samples[0].diff, contact: run.samples[1].diff, minY: lowest(run.samples[1].gpu), cpuMinY: lowest(run.samples[1].cpu),
          dispatches: run.worlds.webgpu.counters.dispatches, colliders: run.worlds.webgpu.colliderCount,
        };
      }
      return out;
    });
    for (const [name, s] of Object.entries(r))
      console.log(`${name}: max |dx| ${s.fall.toExponential(2)} m falling, ${s.contact.toExponential(2)} m after 0.5 s on the collider; lowest y ${s.minY.toFixed(5)} vs ${s.cpuMinY.toFixed(5)} m; ${s.dispatches} dispatches per frame`);
    for (const [name, s] of Object.entries(r)) {
      assert.equal(s.colliders, 1);
      // Free fall (1/6 s, no contact yet): rounding only, as in gpu_backend.test.mjs: 1e-5 m.
      assert.ok(s.fall < 1e-5, `${name}: falling, ${s.fall} m`);
      // Landed at ~0.18 s and 0.5 s on the collider: the collider holds it (free fall would have
      // reached the ground, y = 0, or with no ground far below it).
      assert.ok(s.minY > 0.1, `${name}: lowest y ${s.minY} m`);
      // Through the impact and the settling: the same projections in the same order, but a stick or
      // a slide (friction) and a bounce or a rest (restitution) are branches that a rounding-level
      // difference can take either way, and the difference they make then grows with each substep
      // of contact. Bound: 0.5 mm, 0.17 % of the body's size (measured 3.6e-5 to 1.2e-4 m).
      assert.ok(s.contact < 5e-4, `${name}: on the collider, ${s.contact} m`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('mesh colliders are refused on WebGPU, and a collider\'s bad arguments throw as on wasm', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const w = await sb.createWorld({ backend: 'webgpu' });
      const attempt = (fn) => {
        try {
          fn();
          return 'accepted';
        } catch (e) {
          return `${e.name}: ${e.message}`;
        }
      };
      return {
        mesh: attempt(() => w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], triangles: [0, 1, 2] })),
        radius: attempt(() => w.addCollider({ shape: 'sphere', radius: -1 })),
        count: w.colliderCount,
        pose: attempt(() => w.addCollider({ shape: 'sphere', radius: 0.1 }).setPose([0, 0, 0], [0, 0, 0, 0])),
        destroyed: attempt(() => {
          const c = w.addCollider({ shape: 'box' });
          c.destroy();
          c.setParam('friction', 1);
        }),
        after: w.colliderCount,
      };
    });
    assert.match(r.mesh, /^BackendError: a mesh collider is not supported by the webgpu backend yet/);
    assert.match(r.radius, /SB_ERR_OUT_OF_RANGE: sphere radius/);
    assert.equal(r.count, 0, 'a refused collider is not kept');
    assert.match(r.pose, /unit quaternion/);
    assert.match(r.destroyed, /SB_ERR_INVALID_COLLIDER/);
    assert.equal(r.after, 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
