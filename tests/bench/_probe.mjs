import { load } from '../bridge/load.mjs';
const sb = await load();
const w = sb.createWorld();
for (const cells of [[6,6,5],[12,12,12],[20,20,21]]) {
  const b = w.addBox({cells, size: cells.map(n=>n*0.05), center:[0,1,0]});
  const p = b.positions;
  let mn=[1e9,1e9,1e9], mx=[-1e9,-1e9,-1e9];
  for (let i=0;i<b.vertexCount;i++) for(let k=0;k<3;k++){mn[k]=Math.min(mn[k],p[3*i+k]);mx[k]=Math.max(mx[k],p[3*i+k]);}
  console.log(cells, b.vertexCount, b.edgeCount, b.tetCount, b.triangleCount, mn, mx, b.stats());
}
