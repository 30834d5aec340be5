// Equations in the article are written in TeX and turned into MathML by KaTeX when Vite serves or
// builds the page, so the reader downloads no math library and no fonts: every current browser
// draws MathML Core itself. $$...$$ is a displayed equation, \(...\) an inline one. A formula KaTeX
// cannot read fails the build (throwOnError) instead of showing red text.
import katex from 'katex';

export function renderTex(html) {
  const render = (tex, displayMode) => katex.renderToString(tex.trim(), { displayMode, output: 'mathml', throwOnError: true });
  return html.replace(/\$\$([\s\S]+?)\$\$/g, (_, tex) => render(tex, true)).replace(/\\\(([\s\S]+?)\\\)/g, (_, tex) => render(tex, false));
}

export function texPlugin() {
  return {
    name: 'softbody-tex',
    transformIndexHtml: { order: 'pre', handler: (html) => renderTex(html) },
  };
}
