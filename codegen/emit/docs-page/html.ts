/**
 * @module The docs page's HTML template: a tagged template literal that escapes every interpolated
 * value unless it is itself `Html` (another template's output, or text marked trusted with
 * `trustedHtml`). Catalogue text therefore cannot break out of its markup by construction, and the
 * template's values are type-checked like any TypeScript (a field renamed in the model fails the
 * build, which a string template language would only show in the output).
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escapes text for element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

const MARKUP = Symbol('html');

/** Markup that is inserted as it is: a template's output, or text the generator vouches for (`trustedHtml`). */
export interface Html {
  readonly [MARKUP]: string;
}

const markup = (text: string): Html => ({ [MARKUP]: text });
const isHtml = (value: unknown): value is Html => typeof value === 'object' && value !== null && MARKUP in value;

/** What a template may interpolate: text and numbers are escaped; `Html` is not; a list is each item, in order; false, null and undefined are nothing. */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (isHtml(value)) return value[MARKUP];
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === false || value === null || value === undefined) return '';
  return escapeHtml(String(value));
}

/** The tag: `html\`<td>${text}</td>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  return markup(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i] as HtmlValue) : ''), ''));
}

/** Markup the generator vouches for (its own CSS and script, Markdown rendered with raw HTML off). */
export function trustedHtml(text: string): Html {
  return markup(text);
}

/** Items one per line, as the page lists rows, cards and sections. */
export function lines(items: readonly HtmlValue[]): Html {
  return markup(items.map(render).join('\n'));
}

/** The page's text. */
export function htmlText(value: Html): string {
  return value[MARKUP];
}
