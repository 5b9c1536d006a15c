import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { Button, ErrorNote, TextInput } from '../../ui/controls';
import { base, keys } from './shell';

/** Creates a page (at the top level or under `parentId`) and opens it in the editor. */
export function NewPageForm({
  orgId,
  parentId,
  onDone,
}: {
  orgId: string;
  parentId: string | null;
  onDone?: () => void;
}) {
  const [title, setTitle, clear] = useDraft(`new-page:${parentId ?? 'root'}`, '');
  const client = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => api().postPages({ orgId, body: { title, parentId } }),
    onSuccess: async (res) => {
      clear();
      await client.invalidateQueries({ queryKey: keys.children(orgId, parentId) });
      if (parentId) await client.invalidateQueries({ queryKey: keys.page(orgId, parentId) });
      onDone?.();
      navigate(`${base(orgId)}/${res.page.pageId}/edit`);
    },
  });
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <TextInput
        label={parentId ? 'Title of the subpage' : 'Title of the new page'}
        value={title}
        onChange={setTitle}
        isRequired
        className="min-w-0 flex-1 basis-56"
      />
      <Button type="submit" tone="primary" isDisabled={create.isPending || title.trim() === ''}>
        {parentId ? 'Create subpage' : 'Create page'}
      </Button>
      <div className="basis-full">
        <ErrorNote error={create.error} />
      </div>
    </form>
  );
}
