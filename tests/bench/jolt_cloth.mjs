// The peer for the cloth benchmark (issue 29: "compare with Jolt's cloth on the same sheet, side by
// side in one run"): a Jolt Physics soft body made from exactly our sheet's vertices and triangles,
// over a static floor, with a static sphere (cloth_jolt_bench.mjs puts it under the floor: Jolt's
// 64-across sheet draped on it went non-finite, so the shared scene is the sheet hanging from pins).
//
// Same simulation as ours, item by item:
// - vertices: our sheet's rest positions; masses from our areal density, a third of each triangle's
//   area to each corner (as our ClothModel lumps them), handed to Jolt as inverse masses;
// - constraints: Jolt's own cloth set from the triangles (SoftBodySharedSettings::CreateConstraints:
//   an edge constraint per triangle edge, shear edges across quads, a dihedral bend constraint per
//   interior edge). Compliances from our parameters on near-equilateral triangles of side a: an edge
//   of our stretch model is a spring of stiffness Y * (its triangles' area) / a^2 = Y * sqrt(3) / 2,
//   so Jolt's edge compliance is 2 / (sqrt(3) Y); a dihedral angle's stiffness for our bending D is
//   D * 3 a^2 / (its triangles' area) = 2 sqrt(3) D, so its compliance is 1 / (2 sqrt(3) D);
// - substeps: mNumIterations = our substeps (Jolt's iterations are XPBD substeps, jolt_box.mjs);
// - contact: Jolt collides soft-body vertices (radius mVertexRadius = half our thickness) with the
//   sphere and the floor; it has no self-collision, so its row compares with ours with and without.
// - gravity -9.81, no damping, friction and restitution ours, sleeping off.
import { joltWorld, LAYER_MOVING, LAYER_STATIC } from './jolt_box.mjs';

export { loadJolt } from './jolt_box.mjs';

// Per-vertex inverse masses (1/kg) of a sheet: areal density (kg/m^2) x a third of each triangle's area.
export function clothInverseMasses(positions, triangles, arealDensity) {
  const n = positions.length / 3;
  const mass = new Float64Array(n);
  const p = positions;
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
    const vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
    const area = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    for (const i of [a, b, c]) mass[i] += (arealDensity * area) / 3;
  }
  return mass.map((m) => (m > 0 ? 1 / m : 0));
}

export class JoltClothScene {
  // sheet: { positions: Float32Array xyz (rest, world space), triangles: Uint32Array, invMass },
  // params: { stretchStiffness (N/m), bendingStiffness (N m), thickness (m), friction, restitution },
  // sphere: { radius, center } (m).
  constructor(J, sheet, params, sphere, { substeps, gravity = -9.81, workerThreads = null }) {
    this.J = J;
    this.vertexCount = sheet.positions.length / 3;
    ({ jolt: this.jolt, system: this.system, bodies: this.bodies } = joltWorld(J, { gravity, workerThreads }));
    const identity = new J.Quat(0, 0, 0, 1);
    const addStatic = (shape, [x, y, z]) => {
      const at = new J.RVec3(x, y, z);
      const s = new J.BodyCreationSettings(shape, at, identity, J.EMotionType_Static, LAYER_STATIC);
      s.mFriction = params.friction;
      s.mRestitution = params.restitution;
      const body = this.bodies.CreateBody(s);
      this.bodies.AddBody(body.GetID(), J.EActivation_DontActivate);
      J.destroy(s);
      J.destroy(at);
      return body;
    };
    const half = new J.Vec3(50, 0.5, 50);
    this.floor = addStatic(new J.BoxShape(half, 0.05), [0, -0.5, 0]);
    J.destroy(half);
    this.sphere = addStatic(new J.SphereShape(sphere.radius), sphere.center);

    const shared = new J.SoftBodySharedSettings();
    shared.AddRef();
    const v = new J.SoftBodySharedSettingsVertex();
    const p = sheet.positions;
    for (let i = 0; i < this.vertexCount; ++i) {
      v.mPosition.x = p[3 * i];
      v.mPosition.y = p[3 * i + 1];
      v.mPosition.z = p[3 * i + 2];
      v.mInvMass = sheet.invMass[i];
      shared.mVertices.push_back(v);
    }
    J.destroy(v);
    const face = new J.SoftBodySharedSettingsFace(0, 0, 0, 0);
    const tris = sheet.triangles;
    for (let f = 0; f < tris.length; f += 3) {
      for (let k = 0; k < 3; ++k) face.set_mVertex(k, tris[f + k]);
      shared.AddFace(face);
    }
    J.destroy(face);
    const attributes = new J.SoftBodySharedSettingsVertexAttributes(); // one, repeated for every vertex
    attributes.mCompliance = 2 / (Math.sqrt(3) * params.stretchStiffness);
    attributes.mShearCompliance = attributes.mCompliance;
    attributes.mBendCompliance = params.bendingStiffness > 0 ? 1 / (2 * Math.sqrt(3) * params.bendingStiffness) : 1e10;
    shared.CreateConstraints(attributes, 1, J.SoftBodySharedSettings_EBendType_Dihedral);
    J.destroy(attributes);
    shared.Optimize();
    const origin = new J.RVec3(0, 0, 0);
    const cs = new J.SoftBodyCreationSettings(shared, origin, identity, LAYER_MOVING);
    cs.mNumIterations = substeps;
    cs.mAllowSleeping = false;
    cs.mLinearDamping = 0;
    cs.mFriction = params.friction;
    cs.mRestitution = params.restitution;
    cs.mPressure = 0;
    cs.mGravityFactor = 1;
    cs.mVertexRadius = 0.5 * params.thickness;
    this.body = this.bodies.CreateSoftBody(cs);
    this.bodies.AddBody(this.body.GetID(), J.EActivation_Activate);
    J.destroy(cs);
    J.destroy(origin);
    J.destroy(identity);
    this.counts = {
      vertices: shared.mVertices.size(),
      edges: shared.mEdgeConstraints.size(),
      bends: shared.mDihedralBendConstraints.size(),
    };
    shared.Release();
    this.motion = J.castObject(this.body.GetMotionProperties(), J.SoftBodyMotionProperties);
  }

  step(dt) {
    this.jolt.Step(dt, 1);
  }

  // World-space y of every vertex's lowest and highest, m (a sanity check that it drapes).
  extentY() {
    const oy = this.body.GetPosition().GetY();
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < this.vertexCount; ++i) {
      const y = oy + this.motion.GetVertex(i).mPosition.GetY();
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
    return { lo, hi };
  }

  destroy() {
    for (const body of [this.body, this.sphere, this.floor]) {
      this.bodies.RemoveBody(body.GetID());
      this.bodies.DestroyBody(body.GetID());
    }
    this.J.destroy(this.jolt);
    this.body = this.sphere = this.floor = this.motion = this.jolt = null;
  }
}
