import { useOrgId } from '../../lib/hooks';
import { PageTitle, Section } from '../../ui/controls';
import { NewPageForm } from './new-page';
import { WikiShell } from './shell';

/** The pages of the organization: the tree, and a new top-level page. */
export default function WikiHome() {
  const orgId = useOrgId();
  return (
    <WikiShell>
      <PageTitle title="Pages">Pages</PageTitle>
      <p className="mt-2 text-sm text-slate-700">
        The organization's pages, in a tree. Open one from the tree (arrow keys move in it, Enter opens), or start a new
        one.
      </p>
      <Section title="New page">
        <NewPageForm orgId={orgId} parentId={null} />
      </Section>
    </WikiShell>
  );
}
