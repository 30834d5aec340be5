// The docs as pages (web/docs_plugin.js): `npm start`'s server (web/vite.config.js) renders
// docs/*.md and README.md at /docs/, the demo links there, and every page's Markdown comes out as
// HTML (no fence, table rule or bold marker left over, every link between docs leads to a page
// that exists). The static build writes the same pages (checked in embed_page.test.mjs's build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { attributeTable } from '../../scripts/attribute_table.mjs';
import { docNames, renderMarkdown } from '../../web/docs_plugin.js';
import { launchBrowser } from './harness.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
let server;
let base;
let browser;

before(async () => {
  server = await createServer({ root: WEB, configFile: `${WEB}vite.config.js`, logLevel: 'error', server: { host: '127.0.0.1', port: 0, hmr: false, watch: null } });
  await server.listen();
  base = server.resolvedUrls.local[0];
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('Markdown: tables, fences, lists, links and code spans', () => {
  const html = renderMarkdown(['# A title', '', 'Text with `a | b` and **bold `code`** and a [link](docs/embedding.md#api).', '', '- one', '  more of one', '- two', '', '  ```js', '  x = 1;', '  ```', '', '| a | b |', '| --- | ---: |', '| `c` | 2 \\| 3 |'].join('\n'));
  assert.match(html, /<h1 id="a-title">A title<\/h1>/);
  assert.match(html, /<code>a \| b<\/code>/);
  assert.match(html, /<strong>bold <code>code<\/code><\/strong>/);
  assert.match(html, /<a href="embedding.html#api">link<\/a>/);
  assert.match(html, /<ul><li>one\nmore of one<\/li><li>two\n<pre><code class="language-js">x = 1;<\/code><\/pre><\/li><\/ul>/);
  assert.match(html, /<td><code>c<\/code><\/td><td style="text-align:right">2 \| 3<\/td>/);
});

test('npm start serves every doc as a page, linked from the demo; links between docs resolve', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${base}index.html?test`);
    const href = await page.getAttribute('a[href="./docs/index.html"]', 'href');
    assert.equal(href, './docs/index.html', 'the demo links to the docs');
    const names = ['index', ...docNames()];
    const targets = new Set();
    for (const name of names) {
      const response = await page.goto(`${base}docs/${name}.html`);
      assert.equal(response.status(), 200, name);
      const found = await page.evaluate(() => ({
        text: document.querySelector('main').textContent,
        html: document.querySelector('main').innerHTML,
        links: [...document.querySelectorAll('main a[href], nav a[href]')].map((a) => a.getAttribute('href')).filter((h) => !/^(https?:|#|\.\.\/)/.test(h)),
        images: [...document.querySelectorAll('main img')].map((img) => ({ src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0 })),
      }));
      assert.doesNotMatch(found.text, /```|^\|\s*---/m, `${name}: no Markdown left over`);
      assert.doesNotMatch(found.html.replace(/<code>[\s\S]*?<\/code>/g, ''), /\*\*/, `${name}: no bold marker left over`);
      for (const link of found.links) targets.add(link.split('#')[0]);
      for (const image of found.images) assert.ok(image.ok, `${name}: image ${image.src} loads`);
    }
    for (const target of targets) assert.ok(names.includes(target.replace(/\.html$/, '')), `a link to ${target} leads to a doc page`);
    // The element's reference: the attribute table as a table, one row per attribute.
    await page.goto(`${base}docs/embedding.html`);
    const rows = await page.evaluate(() => [...document.querySelectorAll('table')].find((t) => t.rows[0].cells[0].textContent === 'attribute').rows.length - 1);
    assert.equal(rows, attributeTable().split('\n').length - 2);
  } finally {
    await context.close();
  }
});
