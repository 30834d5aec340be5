// "copy embed code" on the demo and the comparison page: the dialog holds a <soft-body> tag and an
// iframe for the current setup, and the iframe's address, opened, shows that setup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { FRAME_TIMEOUT, openDemo, useBrowserSuite } from './harness.mjs';

const suite = useBrowserSuite();

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
  const { page, context, problems } = await openDemo(suite.browser, suite.url);
  try {
    await page.evaluate(() => {
      app.set('edgeCompliance', 1e-3);
      app.set('substeps', 20);
      app.set('damping', 2.5);
      app.press('copyEmbed');
    });
    const code = await snippets(page);
    assert.match(code.element, /\n<soft-body [^>]*edge-compliance="0.001"/);
    assert.match(code.element, /substeps="20"/);
    assert.match(code.element, /damping="2.5"/);
    assert.match(code.element, /resolution="8"/, 'the demo box is 8 cells, the element default 6');
    assert.match(code.element, / autoplay[ >]/);
    assert.doesNotMatch(code.element, /density=/, 'defaults are left out');
    assert.match(code.element, new RegExp(`^<script type="module" src="${suite.url}src/embed/index.js"></script>`), 'the dev server\'s element module, by absolute address');
    assert.equal(code.note, '');
    const { page: embed, problems: embedProblems, src } = await openEmbed(context, code.iframe);
    assert.ok(src.startsWith(`${suite.url}embed.html?`), src);
    const state = await embed.evaluate(() => {
      const f = window.app.figure;
      return { edge: f.bodies[0].getParam('edgeCompliance'), substeps: f.world.substeps, damping: f.bodies[0].getParam('damping'), vertices: f.bodies[0].vertexCount, paused: f.paused };
    });
    assert.deepEqual(state, { edge: 0.0010000000474974513, substeps: 20, damping: 2.5, vertices: 729, paused: false });
    assert.deepEqual(embedProblems, []);

    // The figure options an author picks in the dialog: each rewrites both snippets at once.
    await page.fill('[data-option="alt"]', 'a soft box dropped on the floor');
    await page.uncheck('[data-option="interactive"]');
    await page.check('[data-option="disable-zoom"]');
    await page.uncheck('[data-option="camera-follow"]');
    const chosen = await snippets(page);
    assert.match(chosen.element, / alt="a soft box dropped on the floor" interactive="false" disable-zoom camera-follow="false"><\/soft-body>$/);
    assert.match(chosen.iframe, /&amp;alt=a%20soft%20box%20dropped%20on%20the%20floor&amp;interactive=false&amp;disable-zoom&amp;camera-follow=false" .* loading="lazy" title="a soft box dropped on the floor">/);
    const { page: optioned, problems: optionedProblems } = await openEmbed(context, chosen.iframe);
    const options = await optioned.evaluate(() => {
      const f = window.app.figure;
      return { interactive: f.interactive, disableZoom: f.disableZoom, cameraFollow: f.cameraFollow, label: f.shadowRoot.querySelector('canvas.scene').getAttribute('aria-label'), tabIndex: f.tabIndex };
    });
    assert.deepEqual(options, { interactive: false, disableZoom: true, cameraFollow: false, label: 'a soft box dropped on the floor.', tabIndex: -1 });
    assert.deepEqual(optionedProblems, []);
    // Load on click, and at once: the element says so; the frame loads with the iframe (not lazy).
    await page.selectOption('[data-option="reveal"]', 'interaction');
    await page.selectOption('[data-option="loading"]', 'eager');
    const eager = await snippets(page);
    assert.match(eager.element, / loading="eager" reveal="interaction" interactive="false"/);
    assert.match(eager.iframe, /&amp;reveal=interaction&amp;/);
    assert.doesNotMatch(eager.iframe, /loading/);
    // Opened again, the dialog starts from the defaults.
    await page.evaluate(() => document.querySelector('#embed-dialog').close());
    await page.evaluate(() => app.press('copyEmbed'));
    assert.deepEqual(await snippets(page), code);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a Neo-Hookean preset XPBD refuses runs under VBD, and its embed code says VBD with its sweeps', async () => {
  const { page, context, problems } = await openDemo(suite.browser, suite.url);
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
  const { page, context, problems } = await openDemo(suite.browser, suite.url, { query: 'compare.html?test&preset=stiff-jelly', viewport: { width: 900, height: 600 } });
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

// A blank page on another origin (a second port) holding exactly the pasted text, as an author's
// site would; resolves to { url, close }.
function serveBlankPage(pasted) {
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>paste</title></head>
<body style="margin:0">${pasted}</body></html>`;
  const server = createServer((request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

// Pixels of a 2D canvas that differ from its top-left corner (sky): a drawn body and ground.
const CANVAS_CONTRAST = (canvas) => {
  const { width, height } = canvas;
  const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  let differing = 0;
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) differing++;
  return differing / (width * height);
};

// Pastes the element snippet, then the iframe snippet, into a blank page on another origin and
// checks each draws.
async function pasteAndDraw(snippet, kind) {
  const blank = await serveBlankPage(snippet);
  const context = await suite.browser.newContext({ viewport: { width: 700, height: 480 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.text().startsWith('<soft-body>')) problems.push(`console.${message.type()}: ${message.text()}`);
    });
    await page.goto(blank.url);
    assert.notEqual(new URL(blank.url).origin, new URL(suite.url).origin);
    let frame = page.mainFrame();
    if (kind === 'iframe') {
      await page.waitForFunction(() => document.querySelector('iframe'));
      frame = await (await page.$('iframe')).contentFrame();
      await frame.waitForFunction(() => window.app?.figure, null, { timeout: FRAME_TIMEOUT });
    }
    await frame.waitForFunction(() => document.querySelector('soft-body')?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    const drawn = await frame.evaluate(`(${CANVAS_CONTRAST})(document.querySelector('soft-body').shadowRoot.querySelector('canvas'))`);
    const bodies = await frame.evaluate(() => document.querySelector('soft-body').bodies.map((b) => b.vertexCount));
    assert.ok(bodies.length >= 1 && bodies.every((n) => n > 0), `${kind}: ${bodies}`);
    assert.ok(drawn > 0.05, `${kind}: the canvas draws a body and the ground (${(100 * drawn).toFixed(1)} % of it differs from the sky)`);
    assert.deepEqual(problems, [], kind);
  } finally {
    await context.close();
    blank.close();
  }
}

test('each snippet, pasted into a blank page on another origin, draws', async () => {
  for (const query of ['?test', 'compare.html?test&preset=stiff-jelly']) {
    const { page, context, problems } = await openDemo(suite.browser, suite.url, { query, viewport: { width: 900, height: 600 } });
    let code;
    try {
      await page.evaluate(() => app.press('copyEmbed'));
      code = await snippets(page);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    // The element snippet names its module by absolute address and needs nothing else.
    assert.match(code.element, /^<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/[^"]+"><\/script>\n<soft-body /);
    await pasteAndDraw(code.element, 'element');
    await pasteAndDraw(code.iframe, 'iframe');
  }
});

test('a multi-body scene carries over as scenery, pasted it draws its obstacles and bodies; added bodies get a note', async () => {
  const { page, context, problems } = await openDemo(suite.browser, suite.url);
  let code;
  try {
    await page.evaluate(() => app.set('scene', 'stairs'));
    await page.evaluate(() => app.press('copyEmbed'));
    code = await snippets(page);
    assert.match(code.element, / scenery="stairs"/);
    assert.match(code.iframe, /scenery=stairs/);
    assert.equal(code.note, '', 'nothing left out');
    await page.evaluate(() => document.querySelector('#embed-dialog').close());
    await page.evaluate(() => app.press('addBody'));
    await page.evaluate(() => app.press('copyEmbed'));
    assert.match((await snippets(page)).note, /^Left out: 1 body added with "add body"/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
  // Pasted on another origin, the figure holds the stairs (5 obstacles) and their 2 bodies.
  const blank = await serveBlankPage(code.element);
  const pasted = await suite.browser.newContext({ viewport: { width: 700, height: 480 }, deviceScaleFactor: 1 });
  try {
    const page2 = await pasted.newPage();
    await page2.goto(blank.url);
    await page2.waitForFunction(() => document.querySelector('soft-body')?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    const scenery = await page2.evaluate(() => {
      const lane = document.querySelector('soft-body')._figure.lanes[0];
      return { colliders: lane.colliders.length, extras: lane.extras.length };
    });
    assert.deepEqual(scenery, { colliders: 5, extras: 2 });
  } finally {
    await pasted.close();
    blank.close();
  }
});
