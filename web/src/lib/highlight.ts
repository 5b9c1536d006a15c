import { createHighlighterCore, type HighlighterCore, type LanguageInput } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

/**
 * Syntax colours for the file viewer: Shiki's core with its JavaScript regex engine (no WASM),
 * one high-contrast light theme, and each language's grammar loaded the first time a file of it
 * is opened. This module is imported only by the viewer, so none of it is in the first load.
 */
const grammars: Record<string, () => Promise<{ default: LanguageInput }>> = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  dockerfile: () => import('shiki/langs/dockerfile.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
};

const byExtension: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  json: 'json',
  css: 'css',
  html: 'html',
  htm: 'html',
  md: 'markdown',
  yml: 'yaml',
  yaml: 'yaml',
  sh: 'shellscript',
  bash: 'shellscript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  toml: 'toml',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
};

/** The grammar for a path, if there is one. */
export function languageOf(path: string): string | undefined {
  const name = path.split('/').pop() ?? '';
  if (/^Dockerfile/i.test(name)) return 'dockerfile';
  const ext = name.includes('.') ? name.split('.').pop()?.toLowerCase() : undefined;
  return ext ? byExtension[ext] : undefined;
}

let highlighter: Promise<HighlighterCore> | undefined;
const THEME = 'github-light-high-contrast';

export type Token = { content: string; color?: string };

/** The file's lines as coloured tokens, or undefined when no grammar fits. */
export async function highlight(code: string, path: string): Promise<Token[][] | undefined> {
  const lang = languageOf(path);
  const load = lang ? grammars[lang] : undefined;
  if (!lang || !load) return undefined;
  highlighter ??= createHighlighterCore({
    themes: [import('shiki/themes/github-light-high-contrast.mjs')],
    langs: [],
    engine: createJavaScriptRegexEngine(),
  });
  const h = await highlighter;
  if (!h.getLoadedLanguages().includes(lang)) await h.loadLanguage((await load()).default);
  return h
    .codeToTokens(code, { lang, theme: THEME })
    .tokens.map((line) => line.map((t) => ({ content: t.content, color: t.color })));
}
