/**
 * @module The guide's Markdown as the page's HTML, by markdown-it (CommonMark with tables): raw HTML
 * in the source is off, so every text is escaped by the renderer, as catalogue text is by the page's
 * template. Three rules fit it to the page: a `sh` code block is a command with a copy button
 * (`pre.curl`), a table scrolls in its own box (`.scroll`) with each cell labelled with its column
 * (`data-label`, shown when a phone stacks the cells), and `{base_url}` at the start of a link stays
 * as it is, for the gateway to replace when it serves the page.
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml, trustedHtml, type Html } from './html';

const BASE_URL = '{base_url}';

function pageMarkdown(): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const normalizeLink = md.normalizeLink.bind(md);
  md.normalizeLink = (url) => (url.startsWith(BASE_URL) ? BASE_URL + normalizeLink(url.slice(BASE_URL.length)) : normalizeLink(url));
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token?.info.trim() !== 'sh') return fence ? fence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
    return `<pre class="curl"><code>${escapeHtml(token.content.replace(/\n$/, ''))}</code></pre>\n`;
  };
  md.renderer.rules['table_open'] = () => '<div class="scroll"><table>\n';
  md.renderer.rules['table_close'] = () => '</table></div>\n';
  md.core.ruler.push('data_label', (state) => {
    let labels: string[] = [];
    let column = 0;
    state.tokens.forEach((token, i) => {
      if (token.type === 'thead_open') labels = [];
      else if (token.type === 'th_open') labels.push(state.tokens[i + 1]?.content ?? '');
      else if (token.type === 'tr_open') column = 0;
      else if (token.type === 'td_open') {
        const label = labels[column];
        if (column > 0 && label) token.attrSet('data-label', label);
        column += 1;
      }
    });
  });
  return md;
}

const md = pageMarkdown();

/** The Markdown as HTML. */
export function markdownHtml(markdown: string): Html {
  return trustedHtml(md.render(markdown));
}
