// The tutorial (web/article.html) in headless Chromium: it loads without console errors, its
// equations arrive as MathML, every live figure draws its own picture when scrolled to (none blank,
// no two alike), the iframe figure runs, the live caption follows Figure 1, and the demo links to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, useBrowserSuite } from './harness.mjs';

const suite = useBrowserSuite();

test('the article draws every figure, distinct from each other, with its equations in MathML', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 800, height: 700 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  try {
    await page.goto(`${suite.url}article.html?test`);
    await page.waitForFunction(() => customElements.get('soft-body') !== undefined);
    const text = await page.evaluate(() => ({
      title: document.querySelector('h1').textContent,
      math: document.querySelectorAll('math').length,
      rawTex: /\$\$|\\\(/.test(document.body.innerText),
      figures: [...document.querySelectorAll('soft-body')].map((f) => f.id),
      iframes: document.querySelectorAll('iframe').length,
    }));
    assert.equal(text.title, 'Why soft bodies explode');
    assert.ok(text.math >= 15, `equations rendered as MathML (${text.math})`);
    assert.equal(text.rawTex, false, 'no TeX left in the text');
    assert.ok(text.figures.length >= 6, `at least six live figures (${text.figures.length})`);
    assert.equal(text.iframes, 1, 'one iframe embed');

    // Scroll to each figure: it loads, draws, and shows something of its own.
    const signatures = [];
    for (const id of text.figures) {
      await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
      await page.waitForFunction((i) => document.getElementById(i).frames > 3, id, { timeout: FRAME_TIMEOUT, polling: 50 });
      const drawn = await page.evaluate((i) => {
        const canvas = document.getElementById(i).shadowRoot.querySelector('canvas.scene');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let coloured = 0;
        const cells = new Array(64).fill(0); // coloured pixels per cell of an 8 x 8 grid
        for (let y = 0; y < canvas.height; y++) {
          for (let x = 0; x < canvas.width; x++) {
            const k = 4 * (y * canvas.width + x);
            const max = Math.max(data[k], data[k + 1], data[k + 2]);
            const min = Math.min(data[k], data[k + 1], data[k + 2]);
            if (max - min <= 60) continue;
            coloured += 1;
            cells[8 * Math.floor((8 * y) / canvas.height) + Math.floor((8 * x) / canvas.width)] += 1;
          }
        }
        const figure = document.getElementById(i);
        return { coloured, cells: cells.map((c) => (c > 30 ? 1 : 0)).join(''), views: figure.bodies.length, scene: figure.scene, start: figure.getAttribute('start') ?? 'drop', solvers: figure.getAttribute('compare') ?? figure.getAttribute('solver') ?? 'xpbd' };
      }, id);
      assert.ok(drawn.coloured > 100, `${id} is drawn (${drawn.coloured} coloured px)`);
      signatures.push({ id, ...drawn });
    }
    // Two figures are alike when the same cells hold a body; the article's figures differ in scene,
    // view count, start or solvers, so their pictures must too, except two that differ only in their
    // solvers (fig-rk4 and fig-pbd: two boxes dropped, which fall alike until they land, so a still
    // of their first frames may coincide: 31,547 and 31,543 coloured pixels, then the same count
    // once XPBD's damping acted ahead of gravity's increment). Those are told apart by their solvers.
    const setup = (f) => `${f.scene} ${f.views} ${f.start}`;
    for (let i = 0; i < signatures.length; i++) {
      for (let j = i + 1; j < signatures.length; j++) {
        if (setup(signatures[i]) === setup(signatures[j]) && signatures[i].solvers !== signatures[j].solvers) continue;
        assert.notEqual(signatures[i].cells + signatures[i].coloured, signatures[j].cells + signatures[j].coloured, `${signatures[i].id} and ${signatures[j].id} look different`);
      }
    }

    // The iframe figure runs in its own document.
    await page.evaluate(() => document.querySelector('iframe.embed').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => document.querySelector('iframe.embed').contentWindow.app?.figure?.frames > 3, null, { timeout: FRAME_TIMEOUT, polling: 100 });

    // Figure 1's live caption comes from its frame events.
    await page.evaluate(() => document.getElementById('fig-spring').scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => /Energy now \(t = [0-9.]+ s\): explicit Euler [0-9.]+ J, semi-implicit Euler [0-9.]+ J/.test(document.getElementById('live-spring').textContent), null, { timeout: FRAME_TIMEOUT });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the demo links to the article', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 } });
  const page = await context.newPage();
  try {
    await page.goto(`${suite.url}index.html?test`);
    const href = await page.getAttribute('a[href="./article.html"]', 'href');
    assert.equal(href, './article.html');
  } finally {
    await context.close();
  }
});
