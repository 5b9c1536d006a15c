import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useOrgId, useParam } from '../../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, TextArea, TextInput } from '../../ui/controls';
import { Markdown } from './markdown';
import { base, keys, label, WikiShell } from './shell';
import { Crumbs, usePage } from './view';

/**
 * The Markdown editor with its preview beside it (under it on a phone). A save names the version
 * the edit started from: when someone saved since, the API answers 409 and the editor offers to
 * load their version or to save this one over it; what was typed is kept as a draft meanwhile.
 */
export default function WikiEdit() {
  const orgId = useOrgId();
  const pageId = useParam('pageId');
  const q = usePage(orgId, pageId);
  return (
    <WikiShell open={q.data ? q.data.breadcrumbs.map((b) => b.pageId) : undefined}>
      {q.isPending && <Loading what="the page" />}
      <ErrorNote error={q.error} />
      {q.data && (
        <Editor
          key={pageId}
          orgId={orgId}
          pageId={pageId}
          page={q.data.page}
          content={q.data.content}
          trail={q.data.breadcrumbs}
        />
      )}
    </WikiShell>
  );
}

function Editor(props: {
  orgId: string;
  pageId: string;
  page: { title: string; icon: string | null; version: number; contentVersion: number };
  content: string;
  trail: { pageId: string; title: string; icon: string | null }[];
}) {
  const { orgId, pageId } = props;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft, clearDraft] = useDraft<{ text: string; base: number } | null>('content', null);
  const [title, setTitle, clearTitle] = useDraft('title', props.page.title);
  const [conflict, setConflict] = useState(false);
  const text = draft?.text ?? props.content;
  const baseVersion = draft?.base ?? props.page.contentVersion;
  const edit = (value: string) => setDraft({ text: value, base: baseVersion });

  const save = useMutation({
    mutationFn: async (over?: number) => {
      const trimmed = title.trim();
      if (trimmed && trimmed !== props.page.title) {
        await api().patchPagesByPageId({ orgId, pageId, body: { title: trimmed, ifVersion: props.page.version } });
      }
      return api().putPagesContent({ orgId, pageId, body: { content: text, baseVersion: over ?? baseVersion } });
    },
    onSuccess: async () => {
      clearDraft();
      clearTitle();
      setConflict(false);
      await client.invalidateQueries({ queryKey: keys.all(orgId) });
      navigate(`${base(orgId)}/${pageId}`);
    },
    onError: (err) => setConflict(err instanceof ApiError && err.status === 409),
  });

  const theirs = async () => {
    clearDraft();
    setConflict(false);
    save.reset();
    await client.invalidateQueries({ queryKey: keys.page(orgId, pageId) });
  };
  const mineOver = async () => {
    const now = await api().getPagesByPageId({ orgId, pageId });
    save.mutate(now.page.contentVersion);
  };

  return (
    <div>
      <Crumbs orgId={orgId} trail={[...props.trail, { pageId, title: props.page.title, icon: props.page.icon }]} />
      <PageTitle title={`Edit ${props.page.title}`}>Edit {label(props.page)}</PageTitle>
      <p className="mt-1 text-sm text-slate-700">
        Editing version {baseVersion}. Markdown: # headings, **bold**, - lists, [links](https://…).
      </p>
      <form
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(undefined);
        }}
      >
        <TextInput label="Title" value={title} onChange={setTitle} isRequired />
        <div className="grid gap-4 lg:grid-cols-2">
          <TextArea label="Content (Markdown)" value={text} onChange={edit} rows={18} mono />
          <section aria-labelledby="preview-heading" className="min-w-0">
            <h2 id="preview-heading" className="text-sm font-medium">
              Preview
            </h2>
            <div className="mt-1 min-h-40 overflow-auto rounded-md border border-slate-300 p-3 lg:max-h-[27rem]">
              <Markdown text={text} />
            </div>
          </section>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" tone="primary" isDisabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          <Link
            to={`${base(orgId)}/${pageId}`}
            className="inline-flex min-h-10 items-center rounded-md px-3 text-sm text-blue-800 underline"
          >
            Cancel
          </Link>
        </div>
        <ErrorNote error={save.error} />
        {conflict && (
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Resolve the conflict</legend>
            <Button onPress={() => void theirs()}>Load their version (discard mine)</Button>
            <Button tone="danger" onPress={() => void mineOver()}>
              Save mine over theirs
            </Button>
          </fieldset>
        )}
      </form>
    </div>
  );
}
