// The tutorial page: registers <soft-body> for its figures and writes the live numbers under
// Figure 1 from the element's throttled frame event (the same API an author's captions would use).
import '../embed/index.js';
import './article.css';

const spring = document.getElementById('fig-spring');
const live = document.getElementById('live-spring');
const LABELS = { explicitEuler: 'explicit Euler', semiImplicitEuler: 'semi-implicit Euler' };
spring?.addEventListener('frame', (event) => {
  const views = event.detail.views;
  live.textContent = `Energy now (t = ${event.detail.time.toFixed(1)} s): ${views.map((v) => `${LABELS[v.solver] ?? v.solver} ${v.energy.toFixed(2)} J`).join(', ')}. `;
});
