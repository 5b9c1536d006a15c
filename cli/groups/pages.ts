import { readFileSync } from 'node:fs';
import { UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { bodyOf, intOption, localFile, numberArg } from './common';

/**
 * `page`: the organization's pages (Markdown documents in a tree): list, create, view, and edit
 * from a file (no editor is started: write the file, then `page edit --file`); a page's history
 * (its saved versions) and restoring one of them.
 */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { api: s.api, orgId: s.config.orgId };
};

const CONTENT = {
  content: { type: 'string', value: 'TEXT', help: 'its Markdown content' },
  'content-file': {
    type: 'string',
    value: 'FILE',
    help: 'its Markdown content from a file (-: stdin)',
    complete: 'file',
  },
} as const;

/** `--content`, else `--content-file`, else `--file` (its short name for edit). */
async function contentOf(c: Ctx): Promise<string | undefined> {
  const file = c.str('file');
  if (file !== undefined && (c.str('content') !== undefined || c.str('content-file') !== undefined))
    throw new UsageError('Give --file or --content, not both.');
  if (file === undefined) return bodyOf(c, 'content');
  return file === '-' ? c.io.stdin() : readFileSync(localFile(c, file).file, 'utf8');
}

export const PAGE_COMMANDS: CommandSpec[] = [
  {
    path: ['page', 'ls'],
    aliases: ['list'],
    summary: 'the pages at the top level, or under --parent',
    options: {
      parent: { type: 'string', value: 'PAGE', help: 'the pages under this one (its id)' },
      limit: { type: 'string', value: 'N', help: 'at most N (1-100)' },
    },
    examples: ['platform page ls', 'platform page ls --parent pg_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const limit = intOption(c, 'limit', 1, 100);
      const { api, orgId } = await org(c);
      const res = await api.getPages({ orgId, parentId: c.str('parent'), ...(limit ? { limit } : {}) });
      return c.print(res, () =>
        res.pages.length === 0
          ? 'No pages here. Create one: platform page create <title> [--file page.md]'
          : table(
              [
                ['ID', 'TITLE', 'CHILDREN', 'UPDATED'],
                ...res.pages.map((p) => [
                  p.pageId,
                  `${p.icon ? `${p.icon} ` : ''}${p.title}`,
                  p.hasChildren ? 'yes' : '',
                  when(p.updatedAt),
                ]),
              ],
              c.io,
              [0, 2, 3],
            ),
      );
    },
  },
  {
    path: ['page', 'create'],
    summary: 'create a page (at the top level or under --parent), its content from --file or --content',
    positionals: [{ name: 'title', required: true }],
    options: {
      parent: { type: 'string', value: 'PAGE', help: 'the page it goes under (its id)' },
      icon: { type: 'string', value: 'EMOJI', help: 'its icon' },
      file: { type: 'string', value: 'FILE', help: 'its Markdown content, from a file (-: stdin)', complete: 'file' },
      ...CONTENT,
    },
    examples: ['platform page create "Release checklist" --file checklist.md'],
    run: async (c) => {
      const content = await contentOf(c);
      const { api, orgId } = await org(c);
      const res = await api.postPages({
        orgId,
        body: {
          title: c.args[0] as string,
          ...(c.str('parent') ? { parentId: c.str('parent') } : {}),
          ...(c.str('icon') ? { icon: c.str('icon') } : {}),
          ...(content !== undefined ? { content } : {}),
        },
      });
      return c.print(res, () => `Created page ${res.page.title} (${res.page.pageId}).`);
    },
  },
  {
    path: ['page', 'view'],
    summary: 'a page: its title, where it is, and its Markdown content',
    positionals: [{ name: 'pageId', required: true }],
    options: { raw: { type: 'boolean', help: 'only the Markdown content (to edit it and save it back)' } },
    examples: ['platform page view pg_01m8bqewt1ntccd2hvfr1kpxzm', 'platform page view pg_… --raw > page.md'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getPagesByPageId({ orgId, pageId: c.args[0] as string });
      if (c.flag('raw') && !c.json) {
        c.io.stdout(res.content);
        return 0;
      }
      const p = res.page;
      return c.print(res, () =>
        [
          `${p.icon ? `${p.icon} ` : ''}${p.title}  (${p.pageId}, content version ${p.contentVersion})`,
          ...(res.breadcrumbs.length ? [`in: ${res.breadcrumbs.map((b) => b.title).join(' / ')}`] : []),
          `updated ${when(p.updatedAt)}`,
          ...(res.children.length
            ? [`pages under it: ${res.children.map((k) => `${k.title} (${k.pageId})`).join(', ')}`]
            : []),
          '',
          res.content.trimEnd(),
        ].join('\n'),
      );
    },
  },
  {
    path: ['page', 'edit'],
    summary: "save a page's content from a file (--file; no editor is started), rename it or move it",
    details:
      'Saves over the current content; with --base-version N (the content version page view showed when you\n' +
      'took the text), an edit saved since then is refused, not overwritten.',
    positionals: [{ name: 'pageId', required: true }],
    options: {
      file: { type: 'string', value: 'FILE', help: 'the new Markdown content (-: stdin)', complete: 'file' },
      ...CONTENT,
      title: { type: 'string', value: 'TITLE', help: 'a new title' },
      parent: { type: 'string', value: 'PAGE', help: 'move it under this page (none: the top level)' },
      'base-version': { type: 'string', value: 'N', help: 'the content version the file was made from' },
    },
    examples: [
      'platform page view pg_… --raw > page.md && vi page.md && platform page edit pg_… --file page.md',
      'platform page edit pg_01m8bqewt1ntccd2hvfr1kpxzm --title "Runbook"',
    ],
    run: async (c) => {
      const pageId = c.args[0] as string;
      const content = await contentOf(c);
      const base = intOption(c, 'base-version', 1);
      const title = c.str('title');
      const parent = c.str('parent');
      if (content === undefined && title === undefined && parent === undefined)
        throw new UsageError('Say what to change: --file (or --content), --title or --parent.');
      const { api, orgId } = await org(c);
      let page: { pageId: string; title: string; contentVersion: number } | undefined;
      if (title !== undefined || parent !== undefined) {
        page = (
          await api.patchPagesByPageId({
            orgId,
            pageId,
            body: {
              ...(title !== undefined ? { title } : {}),
              ...(parent !== undefined ? { parentId: parent === 'none' ? null : parent } : {}),
            },
          })
        ).page;
      }
      let res: unknown = page ? { page } : undefined;
      if (content !== undefined) {
        const saved = await api.putPagesContent({
          orgId,
          pageId,
          body: { content, ...(base !== undefined ? { baseVersion: base } : {}) },
        });
        page = saved.page;
        res = saved;
      }
      const p = page as { pageId: string; title: string; contentVersion: number };
      return c.print(res, () =>
        content !== undefined
          ? `Saved ${p.title} (${p.pageId}), content version ${p.contentVersion}.`
          : `Updated ${p.title} (${p.pageId}).`,
      );
    },
  },
  {
    path: ['page', 'history'],
    aliases: ['versions'],
    summary: "a page's saved versions, newest first: who saved each, when, its size",
    details:
      "Each save (and each restore) of the content is a version, numbered as the page's content version.\n" +
      'Read one with --show N; bring one back with page restore.',
    positionals: [{ name: 'pageId', required: true }],
    options: {
      limit: { type: 'string', value: 'N', help: 'at most N versions (1-1000, default 20)' },
      show: { type: 'string', value: 'N', help: 'print the Markdown content of version N instead' },
    },
    examples: ['platform page history pg_01m8bqewt1ntccd2hvfr1kpxzm', 'platform page history pg_… --show 2 > v2.md'],
    run: async (c) => {
      const pageId = c.args[0] as string;
      const limit = intOption(c, 'limit', 1, 1000) ?? 20;
      const show = intOption(c, 'show', 1);
      const { api, orgId } = await org(c);
      if (show !== undefined) {
        const one = await api.getPagesVersionsByN({ orgId, pageId, n: show });
        if (!c.json) {
          c.io.stdout(one.content);
          return 0;
        }
        return c.print(one, () => one.content);
      }
      const first = await api.getPagesVersions({ orgId, pageId, limit: Math.min(limit, 100) });
      const versions = [...first.versions];
      let cursor = first.cursor;
      while (cursor && versions.length < limit) {
        const next = await api.getPagesVersions({
          orgId,
          pageId,
          limit: Math.min(limit - versions.length, 100),
          cursor,
        });
        versions.push(...next.versions);
        cursor = next.cursor;
      }
      const res = { versions, cursor, contentVersion: first.contentVersion };
      return c.print(res, () =>
        [
          table(
            [
              ['VERSION', 'SAVED', 'BY', 'SIZE', 'TITLE', 'NOTE'],
              ...versions.map((v) => [
                String(v.n),
                when(v.createdAt),
                v.authorName ?? v.createdBy,
                `${v.size} chars`,
                v.title,
                [v.n === first.contentVersion ? 'current' : '', v.restoredFrom ? `restored from ${v.restoredFrom}` : '']
                  .filter(Boolean)
                  .join(', '),
              ]),
            ],
            c.io,
            [0, 1, 3],
          ),
          ...(cursor ? [`Older versions: raise --limit (showing ${versions.length}).`] : []),
        ].join('\n'),
      );
    },
  },
  {
    path: ['page', 'restore'],
    summary: "bring back an earlier version's content (as a new version; the title stays)",
    details:
      "Restoring makes a new version whose content is version N's; nothing is lost (the versions in\n" +
      'between stay in the history). With --base-version, refused if the page was saved since.',
    positionals: [
      { name: 'pageId', required: true },
      { name: 'version', required: true },
    ],
    options: {
      'base-version': { type: 'string', value: 'N', help: 'the content version you last saw (else: restore over any)' },
    },
    examples: ['platform page history pg_… && platform page restore pg_01m8bqewt1ntccd2hvfr1kpxzm 2'],
    run: async (c) => {
      const pageId = c.args[0] as string;
      const n = Number(numberArg(c, 1));
      const base = intOption(c, 'base-version', 1);
      const { api, orgId } = await org(c);
      const res = await api.postPagesVersionsRestore({
        orgId,
        pageId,
        n,
        body: base !== undefined ? { baseVersion: base } : {},
      });
      return c.print(
        res,
        () => `Restored version ${n} of ${res.page.title} (${res.page.pageId}) as version ${res.version.n}.`,
      );
    },
  },
];
