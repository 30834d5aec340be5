// "copy embed code" on the demo and the comparison page: the dialog holds a <soft-body> tag and an
// iframe for the current setup, and the iframe's address, opened, shows that setup.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, launchBrowser, openDemo, startServer } from './harness.mjs';

let server;
let url;
let browser;

before(async () => {
  ({ server, url } = await startServer());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function snippets(page) {
  await page.waitForSelector('#embed-dialog[open]');
  return page.evaluate(() => ({
    element: document.querySelector('[data-snippet="element"]').value,
    iframe: document.querySelector('[data-snippet="iframe"]').value,
    note: document.querySelector('#embed-dialog .embed-note').textContent,
  }));
}

// Opens the iframe's address (?test added for cheap rendering) and returns its figure's state.
async function openEmbed(context, iframe) {
  const src = /src="([^"]+)"/.exec(iframe)[1].replace(/&amp;/g, '&');
  const address = new URL(src);
  address.searchParams.set('test', '');
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(address.href);
  await page.waitForFunction(() => window.app?.figure?.frames > 3, null, { timeout: FRAME_TIMEOUT });
  return { page, problems, src };
}

test('the demo copies its setup as an element and an iframe that reproduce it', async () => {
  const { page, context, problems } = await openDemo(browser, url);
  try {
    await page.evaluate(() => {
      app.set('edgeCompliance', 1e-3);
      app.set('substeps', 20);
      app.set('damping', 2.5);
      app.press('copyEmbed');
    });
    const code = await snippets(page);
    assert.match(code.element, /^<soft-body [^>]*edge-compliance="0.001"/);
    assert.match(code.element, /substeps="20"/);
    assert.match(code.element, /damping="2.5"/);
    assert.match(code.element, /resolution="8"/, 'the demo box is 8 cells, the element default 6');
    assert.match(code.element, / autoplay[ >]/);
    assert.doesNotMatch(code.element, /density=/, 'defaults are left out');
    assert.match(code.element, /import 'softbody'/);
    assert.equal(code.note, '');
    const { page: embed, problems: embedProblems, src } = await openEmbed(context, code.iframe);
    assert.ok(src.startsWith(`${url}embed.html?`), src);
    const state = await embed.evaluate(() => {
      const f = window.app.figure;
      return { edge: f.bodies[0].getParam('edgeCompliance'), substeps: f.world.substeps, damping: f.bodies[0].getParam('damping'), vertices: f.bodies[0].vertexCount, paused: f.paused };
    });
    assert.deepEqual(state, { edge: 0.0010000000474974513, substeps: 20, damping: 2.5, vertices: 729, paused: false });
    assert.deepEqual(embedProblems, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a Neo-Hookean preset XPBD refuses runs under VBD, and its embed code says VBD with its sweeps', async () => {
  const { page, context, problems } = await openDemo(browser, url);
  try {
    // Rubber (2 MPa) on the 8-cell box has a stiffness number of 23 at 10 substeps, ~2,300 at one:
    // past XPBD's 500, so the preset runs under its fallback, VBD with 4 sweeps (simulation.js).
    const running = await page.evaluate(() => {
      app.set('substeps', 1);
      app.set('material', 'rubber');
      return { solver: app.body.solver, sweeps: app.body.getParam('iterations'), material: app.body.getParam('material') };
    });
    assert.deepEqual(running, { solver: 'vbd', sweeps: 4, material: 1 });
    // The panel's iterations slider shows the sweeps the body runs, not the preset's 1 pass.
    const shown = await page.evaluate(() => {
      const row = [...document.querySelectorAll('.lil-controller')].find((c) => c.querySelector('.lil-name')?.textContent === 'iterations');
      return Number(row.querySelector('input').value);
    });
    assert.equal(shown, 4);
    await page.evaluate(() => app.press('copyEmbed'));
    const code = await snippets(page);
    assert.match(code.element, /solver="vbd"/);
    assert.match(code.element, /iterations="4"/);
    assert.match(code.element, /material="neo-hookean"/);
    // The figure builds what the demo runs (under XPBD it would refuse the body).
    const { page: embed, problems: embedProblems } = await openEmbed(context, code.iframe);
    const figure = await embed.evaluate(() => {
      const b = window.app.figure.bodies[0];
      return { solver: b.solver, sweeps: b.getParam('iterations'), material: b.getParam('material'), finite: b.stats().finite };
    });
    assert.deepEqual(figure, { solver: 'vbd', sweeps: 4, material: 1, finite: true });
    assert.deepEqual(embedProblems, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the comparison copies its solvers and shared values; the figure explodes the same view', async () => {
  const { page, context, problems } = await openDemo(browser, url, { query: 'compare.html?test&preset=stiff-jelly', viewport: { width: 900, height: 600 } });
  try {
    await page.evaluate(() => app.press('copyEmbed'));
    const code = await snippets(page);
    assert.match(code.element, /compare="explicit-euler semi-implicit-euler implicit-euler xpbd"/);
    assert.match(code.element, /stiffness="10000"/);
    assert.match(code.element, /resolution="5"/);
    assert.match(code.element, /damping="0"/);
    assert.match(code.element, /plot="both"/);
    const { page: embed, problems: embedProblems } = await openEmbed(context, code.iframe);
    await embed.waitForFunction(() => window.app.figure.stats.views[0].exploded !== null, null, { timeout: FRAME_TIMEOUT });
    const views = await embed.evaluate(() => window.app.figure.stats.views.map((v) => [v.solver, Boolean(v.exploded)]));
    assert.deepEqual(views, [['explicitEuler', true], ['semiImplicitEuler', false], ['implicitEuler', false], ['xpbd', false]]);
    assert.deepEqual(embedProblems, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
