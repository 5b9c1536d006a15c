import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

/**
 * Markdown as the page shows it. markdown-it with `html: false` escapes every tag written in the
 * text (no raw HTML reaches the page), and its link check refuses `javascript:`, `vbscript:`,
 * `file:` and `data:` addresses (but images of a few types); links open in a new tab without the
 * opener. So what it renders is safe to put in the page as it is.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
const defaultLink =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token && /^https?:/i.test(String(token.attrGet('href') ?? ''))) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLink(tokens, idx, options, env, self);
};

export const renderMarkdown = (text: string) => md.render(text);

const prose =
  'wiki-prose max-w-none break-words text-slate-900 [&_a]:text-blue-800 [&_a]:underline [&_blockquote]:border-l-4 ' +
  '[&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_blockquote]:text-slate-700 [&_code]:rounded ' +
  '[&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-sm [&_h1]:mt-4 [&_h1]:text-2xl ' +
  '[&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:text-lg ' +
  '[&_h3]:font-semibold [&_li]:my-0.5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_pre]:my-2 ' +
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-3 [&_table]:my-2 ' +
  '[&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:border-slate-300 [&_td]:px-2 ' +
  '[&_th]:border [&_th]:border-slate-300 [&_th]:px-2 [&_ul]:list-disc [&_ul]:pl-6 [&_img]:max-w-full';

/**
 * Rendered Markdown. Headings in a page's text are shifted one level down (a page's own title is
 * its h1), so the document outline stays in order.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(
    () => renderMarkdown(text).replace(/<(\/?)h([1-5])>/g, (_, c, n) => `<${c}h${Number(n) + 1}>`),
    [text],
  );
  if (text.trim() === '') return <p className="text-sm text-slate-700">This page is empty.</p>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it with html off escapes all markup (see above)
  return <div className={prose} dangerouslySetInnerHTML={{ __html: html }} />;
}
