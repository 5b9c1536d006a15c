import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type {
  Issue,
  IssueAttachment,
  IssueComment,
  IssueLink,
  IssueSummary,
  IssueTransition,
  Worklog,
} from '../../../../client';
import { api } from '../../lib/api';
import { useDraft } from '../../lib/drafts';
import { useMe, useOrgId, useParam } from '../../lib/hooks';
import {
  Button,
  Done,
  ErrorNote,
  Loading,
  PageTitle,
  Section,
  SelectField,
  TextArea,
  TextInput,
  when,
} from '../../ui/controls';
import {
  duration,
  ISSUE_TYPES,
  LINK_TYPES,
  PRIORITIES,
  priorityName,
  RESOLUTIONS,
  resolutionName,
  statusName,
  typeName,
} from './catalog';
import { listOf, useLabels, useMembers, useSpace, useSprints } from './data';
import { box, Checks, InlineField, NativeSelect, Pill, StatusLozenge } from './edit-kit';

type Body = Parameters<ReturnType<typeof api>['putIssuesByIssueKey']>[0]['body'];
type Page = Awaited<ReturnType<ReturnType<typeof api>['getIssuesByIssueKey']>>;
type ShownLink = IssueLink & { issue: IssueSummary };

export default function IssuePage() {
  const orgId = useOrgId();
  const issueKey = useParam('issueKey');
  const page = useQuery({
    queryKey: ['issue', orgId, issueKey],
    // remember=1: the issue goes first in the person's history (JQL `issue in issueHistory()`).
    queryFn: () => api().getIssuesByIssueKey({ orgId, issueKey, remember: '1' }),
  });
  if (page.isPending) return <Loading what="the issue" />;
  if (page.error) return <ErrorNote error={page.error} />;
  return <IssueView orgId={orgId} data={page.data} routeKey={issueKey} />;
}

function IssueView({ orgId, data, routeKey }: { orgId: string; data: Page; routeKey: string }) {
  const { issue, space, permissions } = data;
  const client = useQueryClient();
  const members = useMembers(orgId);
  const spaceQ = useSpace(orgId, space.key);
  const sprints = useSprints(orgId, spaceQ.data?.space.config.boardId);
  const labels = useLabels(orgId);
  const refresh = () => client.invalidateQueries({ queryKey: ['issue', orgId, routeKey] });
  const save = async (body: Body) => {
    await api().putIssuesByIssueKey({ orgId, issueKey: issue.key, body });
    await refresh();
  };
  const canEdit = Boolean(permissions.edit);
  const versions = spaceQ.data?.versions ?? [];
  const components = spaceQ.data?.components ?? [];
  const sprintList = sprints.data?.sprints ?? [];
  const memberOptions = members.members.map((m) => ({ id: m.userId, label: m.name || m.email || m.userId }));
  const typeIds = spaceQ.data?.space.config.issueTypeIds ?? [issue.typeId];
  const base = `/orgs/${orgId}/tracker`;

  return (
    <div>
      <nav aria-label="Breadcrumbs" className="text-sm text-slate-700">
        <Link className="underline" to={`${base}/search?jql=${encodeURIComponent(`space = ${space.key}`)}`}>
          {space.name}
        </Link>
        {data.parent && (
          <>
            {' / '}
            <Link className="underline" to={`${base}/issues/${data.parent.key}`}>
              {data.parent.key}
            </Link>
          </>
        )}
        {' / '}
        <span>{issue.key}</span>
      </nav>
      <PageTitle title={`${issue.key} ${issue.summary}`}>
        <span className="sr-only">{issue.key}: </span>
        {issue.summary}
      </PageTitle>
      <div className="mt-1 text-sm text-slate-700">
        {typeName(issue.typeId)} {issue.key} · created {when(issue.createdAt)} · updated {when(issue.updatedAt)}
      </div>
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <h2 className="sr-only">Summary and description</h2>
          <FieldLabel>Summary</FieldLabel>
          <InlineField
            label="Summary"
            shown={issue.summary}
            initial={issue.summary}
            canEdit={canEdit}
            save={(summary) => save({ summary })}
            editor={(v, set, id) => (
              // biome-ignore lint/a11y/noAutofocus: the field the person just opened
              <input id={id} autoFocus className={box} value={v} onChange={(e) => set(e.target.value)} />
            )}
          />
          <FieldLabel>Description</FieldLabel>
          <InlineField
            label="Description"
            shown={
              data.description ? (
                <span className="whitespace-pre-wrap">{data.description}</span>
              ) : (
                <span className="text-slate-700">Add a description…</span>
              )
            }
            initial={data.description}
            canEdit={canEdit}
            save={(description) => save({ description })}
            editor={(v, set, id) => (
              <textarea
                id={id}
                // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                autoFocus
                rows={8}
                className={box}
                value={v}
                onChange={(e) => set(e.target.value)}
              />
            )}
          />
          {data.children.length > 0 && (
            <Section title="Child issues" id="children">
              <IssueList issues={data.children} base={base} />
            </Section>
          )}
          <Links
            orgId={orgId}
            issue={issue}
            links={data.links as ShownLink[]}
            canLink={Boolean(permissions.link)}
            onChange={refresh}
          />
          <Attachments
            orgId={orgId}
            issue={issue}
            attachments={data.attachments as IssueAttachment[]}
            canAttach={Boolean(permissions.attach)}
            canDeleteAny={Boolean(permissions.deleteAttachments)}
            nameOf={members.nameOf}
            onChange={refresh}
          />
          <Comments
            orgId={orgId}
            issue={issue}
            comments={data.comments as IssueComment[]}
            canComment={Boolean(permissions.comment)}
            canEditAny={Boolean(permissions.editComments)}
            canDeleteAny={Boolean(permissions.deleteComments)}
            nameOf={members.nameOf}
            onChange={refresh}
          />
          <WorkLog
            orgId={orgId}
            issue={issue}
            worklogs={data.worklogs as Worklog[]}
            canLog={Boolean(permissions.worklog)}
            nameOf={members.nameOf}
            onChange={refresh}
          />
          <History
            issue={issue}
            nameOf={members.nameOf}
            versionName={(id) => versions.find((v) => v.versionId === id)?.name ?? id}
          />
        </div>
        <aside aria-labelledby="details-heading" className="min-w-0">
          <StatusField orgId={orgId} issue={issue} transitions={data.transitions} onChange={refresh} />
          <h2 id="details-heading" className="mb-2 mt-6 text-lg font-semibold">
            Details
          </h2>
          <dl className="grid grid-cols-[7rem_minmax(0,1fr)] items-start gap-x-3 gap-y-1">
            <Row label="Assignee">
              <InlineField
                label="Assignee"
                shown={members.nameOf(issue.assigneeId) || 'Unassigned'}
                initial={issue.assigneeId ?? ''}
                canEdit={Boolean(permissions.assign || canEdit)}
                save={(v) => save({ assignee: v || null })}
                editor={(v, set, id) => (
                  <NativeSelect
                    id={id}
                    autoFocus
                    value={v}
                    onChange={set}
                    options={[{ id: '', label: 'Unassigned' }, ...memberOptions]}
                  />
                )}
              />
            </Row>
            <Row label="Reporter">
              <InlineField
                label="Reporter"
                shown={members.nameOf(issue.reporterId) || 'None'}
                initial={issue.reporterId ?? ''}
                canEdit={canEdit}
                save={(v) => save({ reporter: v || null })}
                editor={(v, set, id) => (
                  <NativeSelect
                    id={id}
                    autoFocus
                    value={v}
                    onChange={set}
                    options={[{ id: '', label: 'None' }, ...memberOptions]}
                  />
                )}
              />
            </Row>
            <Row label="Type">
              <InlineField
                label="Type"
                shown={typeName(issue.typeId)}
                initial={issue.typeId}
                canEdit={canEdit}
                save={(type) => save({ type })}
                editor={(v, set, id) => (
                  <NativeSelect
                    id={id}
                    autoFocus
                    value={v}
                    onChange={set}
                    options={ISSUE_TYPES.filter((t) => typeIds.includes(t.id)).map((t) => ({
                      id: t.id,
                      label: t.name,
                    }))}
                  />
                )}
              />
            </Row>
            <Row label="Priority">
              <InlineField
                label="Priority"
                shown={priorityName(issue.priorityId) || 'None'}
                initial={issue.priorityId ?? ''}
                canEdit={canEdit}
                save={(v) => save({ priority: v || null })}
                editor={(v, set, id) => (
                  <NativeSelect
                    id={id}
                    autoFocus
                    value={v}
                    onChange={set}
                    options={[{ id: '', label: 'None' }, ...PRIORITIES.map((p) => ({ id: p.id, label: p.name }))]}
                  />
                )}
              />
            </Row>
            <Row label="Labels">
              <InlineField
                label="Labels"
                shown={issue.labels.length ? issue.labels.map((l) => <Pill key={l}>{l}</Pill>) : 'None'}
                initial={issue.labels.join(' ')}
                canEdit={canEdit}
                save={(v) => save({ labels: listOf(v) })}
                editor={(v, set, id) => (
                  <>
                    <input
                      id={id}
                      // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                      autoFocus
                      list={`${id}-labels`}
                      className={box}
                      value={v}
                      onChange={(e) => set(e.target.value)}
                      aria-describedby={`${id}-hint`}
                    />
                    <span id={`${id}-hint`} className="text-xs text-slate-700">
                      Separated by spaces or commas.
                    </span>
                    <datalist id={`${id}-labels`}>
                      {(labels.data?.labels ?? []).map((l) => (
                        <option key={l} value={`${v.replace(/[^\s,]*$/, '')}${l}`} />
                      ))}
                    </datalist>
                  </>
                )}
              />
            </Row>
            <Row label="Components">
              <InlineField
                label="Components"
                shown={
                  issue.componentIds.length
                    ? issue.componentIds.map((c) => (
                        <Pill key={c}>{components.find((x) => x.componentId === c)?.name ?? c}</Pill>
                      ))
                    : 'None'
                }
                initial={issue.componentIds}
                canEdit={canEdit}
                save={(v) => save({ components: v })}
                editor={(v, set) => (
                  <Checks
                    legend="Components"
                    value={v}
                    onChange={set}
                    options={components.map((c) => ({ id: c.componentId, label: c.name }))}
                  />
                )}
              />
            </Row>
            <Row label="Fix versions">
              <InlineField
                label="Fix versions"
                shown={
                  issue.fixVersionIds.length
                    ? issue.fixVersionIds.map((id) => (
                        <Pill key={id}>{versions.find((x) => x.versionId === id)?.name ?? id}</Pill>
                      ))
                    : 'None'
                }
                initial={issue.fixVersionIds}
                canEdit={canEdit}
                save={(v) => save({ fixVersions: v })}
                editor={(v, set) => (
                  <Checks
                    legend="Fix versions"
                    value={v}
                    onChange={set}
                    options={versions.filter((x) => !x.archived).map((x) => ({ id: x.versionId, label: x.name }))}
                  />
                )}
              />
            </Row>
            {(spaceQ.data?.space.config.boardId && sprintList.length > 0) || issue.sprintId ? (
              <Row label="Sprint">
                <InlineField
                  label="Sprint"
                  shown={
                    sprintList.find((s) => s.sprintId === issue.sprintId)?.name ??
                    (issue.sprintId ? issue.sprintId : 'None')
                  }
                  initial={issue.sprintId ?? ''}
                  canEdit={canEdit}
                  save={(v) => save({ sprint: v || null })}
                  editor={(v, set, id) => (
                    <NativeSelect
                      id={id}
                      autoFocus
                      value={v}
                      onChange={set}
                      options={[
                        { id: '', label: 'None (backlog)' },
                        ...sprintList
                          .filter((s) => s.state !== 'closed')
                          .map((s) => ({
                            id: s.sprintId,
                            label: `${s.name}${s.state === 'active' ? ' (active)' : ''}`,
                          })),
                      ]}
                    />
                  )}
                />
              </Row>
            ) : null}
            <Row label="Parent">
              <InlineField
                label="Parent"
                shown={
                  data.parent ? (
                    <span>
                      {data.parent.key} {data.parent.summary}
                    </span>
                  ) : (
                    'None'
                  )
                }
                initial={data.parent?.key ?? ''}
                canEdit={canEdit}
                save={(v) => save({ parent: v.trim() || null })}
                editor={(v, set, id) => (
                  <input
                    id={id}
                    // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                    autoFocus
                    className={`${box} font-mono`}
                    placeholder="An issue key, e.g. WEB-1"
                    value={v}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              />
            </Row>
            <Row label="Story points">
              <InlineField
                label="Story points"
                shown={issue.storyPoints ?? 'None'}
                initial={issue.storyPoints === undefined ? '' : String(issue.storyPoints)}
                canEdit={canEdit}
                save={(v) => save({ storyPoints: v.trim() === '' ? null : Number(v) })}
                editor={(v, set, id) => (
                  <input
                    id={id}
                    // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                    autoFocus
                    type="number"
                    min={0}
                    step="any"
                    className={box}
                    value={v}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              />
            </Row>
            <Row label="Due date">
              <InlineField
                label="Due date"
                shown={issue.dueDate ?? 'None'}
                initial={issue.dueDate ?? ''}
                canEdit={canEdit}
                save={(v) => save({ dueDate: v || null })}
                editor={(v, set, id) => (
                  <input
                    id={id}
                    // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                    autoFocus
                    type="date"
                    className={box}
                    value={v}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              />
            </Row>
            <Row label="Original estimate">
              <InlineField
                label="Original estimate"
                shown={issue.originalEstimate === undefined ? 'None' : duration(issue.originalEstimate)}
                initial={issue.originalEstimate === undefined ? '' : duration(issue.originalEstimate)}
                canEdit={canEdit}
                save={(v) => save({ originalEstimate: v.trim() || null })}
                editor={(v, set, id) => (
                  <input
                    id={id}
                    // biome-ignore lint/a11y/noAutofocus: the field the person just opened
                    autoFocus
                    placeholder="e.g. 1d 4h"
                    className={box}
                    value={v}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              />
            </Row>
            <Row label="Time tracking">
              <div className="py-1 text-sm">
                {duration(issue.timeSpent)} logged
                {issue.remainingEstimate !== undefined && <>, {duration(issue.remainingEstimate)} remaining</>}
              </div>
            </Row>
            {issue.resolutionId && (
              <Row label="Resolution">
                <div className="py-1 text-sm">{resolutionName(issue.resolutionId)}</div>
              </Row>
            )}
            <Row label="Created">
              <div className="py-1 text-sm">{when(issue.createdAt)}</div>
            </Row>
          </dl>
        </aside>
      </div>
    </div>
  );
}

function FieldLabel({ children }: { children: string }) {
  return <div className="mt-4 text-xs font-semibold uppercase text-slate-700">{children}</div>;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="py-2 text-sm font-medium text-slate-700">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function IssueList({ issues, base }: { issues: IssueSummary[]; base: string }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {issues.map((c) => (
        <li key={c.issueId} className="flex flex-wrap items-center gap-2 p-2 text-sm">
          <Link className="font-mono text-blue-800 underline" to={`${base}/issues/${c.key}`}>
            {c.key}
          </Link>
          <span className="min-w-0 flex-1">{c.summary}</span>
          <StatusLozenge name={statusName(c.statusId)} category={c.statusCategory} />
        </li>
      ))}
    </ul>
  );
}

/** The status as a button list of the transitions the API offers; one asking for a resolution asks here. */
function StatusField(props: { orgId: string; issue: Issue; transitions: IssueTransition[]; onChange: () => unknown }) {
  const { issue } = props;
  const [chosen, setChosen] = useState('');
  const [resolution, setResolution] = useState(RESOLUTIONS[0]?.id ?? 'done');
  const pick = props.transitions.find((t) => t.id === chosen);
  const move = useMutation({
    mutationFn: (t: IssueTransition) =>
      api().postIssuesTransitions({
        orgId: props.orgId,
        issueKey: issue.key,
        body: { transition: t.id, ...(t.fields.includes('resolution') ? { fields: { resolution } } : {}) },
      }),
    onSuccess: async () => {
      setChosen('');
      await props.onChange();
    },
  });
  return (
    <div>
      <h2 className="mb-2 text-lg font-semibold">Status</h2>
      <p className="mb-2">
        <StatusLozenge name={statusName(issue.statusId)} category={issue.statusCategory} />
      </p>
      {props.transitions.length > 0 && (
        <form
          className="grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (pick) move.mutate(pick);
          }}
        >
          <SelectField
            label="Transition"
            value={chosen}
            onChange={setChosen}
            options={[
              { id: '', label: 'Choose a transition…' },
              ...props.transitions.map((t) => ({
                id: t.id,
                label: t.name === statusName(t.to) ? `→ ${t.name}` : `${t.name} → ${statusName(t.to)}`,
              })),
            ]}
          />
          {pick?.fields.includes('resolution') && (
            <SelectField
              label="Resolution"
              value={resolution}
              onChange={setResolution}
              options={RESOLUTIONS.map((r) => ({ id: r.id, label: r.name }))}
            />
          )}
          <div>
            <Button type="submit" tone="primary" isDisabled={!pick || move.isPending}>
              Move
            </Button>
          </div>
          <ErrorNote error={move.error} />
        </form>
      )}
    </div>
  );
}

function Links(props: { orgId: string; issue: Issue; links: ShownLink[]; canLink: boolean; onChange: () => unknown }) {
  const [form, setForm, clear] = useDraft('link', { type: 'blocks:outward', key: '' });
  const base = `/orgs/${props.orgId}/tracker`;
  const add = useMutation({
    mutationFn: () => {
      const [type, direction] = form.type.split(':') as [string, 'outward' | 'inward'];
      return api().postIssuesLinks({
        orgId: props.orgId,
        issueKey: props.issue.key,
        body: { type, direction, issue: form.key.trim() },
      });
    },
    onSuccess: async () => {
      clear();
      await props.onChange();
    },
  });
  const remove = useMutation({
    mutationFn: (linkId: string) =>
      api().deleteIssuesLinksByLinkId({ orgId: props.orgId, issueKey: props.issue.key, linkId }),
    onSuccess: () => props.onChange(),
  });
  const options = Object.entries(LINK_TYPES).flatMap(([type, words]) =>
    words.outward === words.inward
      ? [{ id: `${type}:outward`, label: words.outward }]
      : [
          { id: `${type}:outward`, label: words.outward },
          { id: `${type}:inward`, label: words.inward },
        ],
  );
  return (
    <Section title="Linked issues" id="links">
      {props.links.length === 0 ? (
        <p className="text-sm text-slate-700">No linked issues.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {props.links.map((l) => (
            <li key={l.linkId} className="flex flex-wrap items-center gap-2 p-2 text-sm">
              <span className="text-slate-700">{l.label}</span>
              <Link className="font-mono text-blue-800 underline" to={`${base}/issues/${l.issue.key}`}>
                {l.issue.key}
              </Link>
              <span className="min-w-0 flex-1">{l.issue.summary}</span>
              <StatusLozenge name={statusName(l.issue.statusId)} category={l.issue.statusCategory} />
              {props.canLink && (
                <Button
                  tone="danger"
                  aria-label={`Remove link: ${l.label} ${l.issue.key}`}
                  onPress={() => remove.mutate(l.linkId)}
                  isDisabled={remove.isPending}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
      {props.canLink && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <SelectField
            label="This issue"
            value={form.type}
            onChange={(type) => setForm({ ...form, type })}
            options={options}
          />
          <TextInput
            label="Issue"
            mono
            isRequired
            value={form.key}
            onChange={(key) => setForm({ ...form, key })}
            placeholder="WEB-2"
          />
          <Button type="submit" isDisabled={add.isPending}>
            Link
          </Button>
          <div className="basis-full">
            <ErrorNote error={add.error} />
          </div>
        </form>
      )}
    </Section>
  );
}

const sizeOf = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

function Attachments(props: {
  orgId: string;
  issue: Issue;
  attachments: IssueAttachment[];
  canAttach: boolean;
  canDeleteAny: boolean;
  nameOf: (id: string) => string;
  onChange: () => unknown;
}) {
  const me = useMe().data?.me.userId;
  const ids = { orgId: props.orgId, issueKey: props.issue.key };
  const [done, setDone] = useState('');
  // Start (the API answers a presigned PUT), send the bytes straight to the bucket, then complete.
  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) {
        const started = await api().postIssuesAttachments({
          ...ids,
          body: { filename: file.name, contentType: file.type || 'application/octet-stream', size: file.size },
        });
        const headers = Object.fromEntries(
          Object.entries(started.upload.headers).filter(([h]) => h.toLowerCase() !== 'content-length'),
        );
        const put = await fetch(started.upload.url, { method: started.upload.method, headers, body: file }).catch(
          (err: Error) => {
            throw new Error(`${file.name} could not be sent to storage (${err.message}).`);
          },
        );
        if (!put.ok) throw new Error(`The upload of ${file.name} failed (HTTP ${put.status}).`);
        await api().postIssuesAttachmentsComplete({ ...ids, attachmentId: started.attachment.attachmentId });
      }
      return files.map((f) => f.name);
    },
    onSuccess: async (names) => {
      setDone(`Attached ${names.join(', ')}.`);
      await props.onChange();
    },
  });
  const download = useMutation({
    mutationFn: async (a: IssueAttachment) => {
      const { url } = await api().getIssuesAttachmentsByAttachmentId({ ...ids, attachmentId: a.attachmentId });
      const link = document.createElement('a');
      link.href = url;
      link.download = a.filename;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    },
  });
  const remove = useMutation({
    mutationFn: (a: IssueAttachment) =>
      api().deleteIssuesAttachmentsByAttachmentId({ ...ids, attachmentId: a.attachmentId }),
    onSuccess: () => props.onChange(),
  });
  return (
    <Section title="Attachments" id="attachments">
      {props.attachments.length === 0 ? (
        <p className="text-sm text-slate-700">No attachments.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {props.attachments.map((a) => (
            <li key={a.attachmentId} className="flex flex-wrap items-center gap-2 p-2 text-sm">
              <span className="min-w-0 flex-1 break-all font-medium">{a.filename}</span>
              <span className="text-slate-700">
                {sizeOf(a.size)} · {props.nameOf(a.authorId)} · {when(a.createdAt)}
              </span>
              <Button aria-label={`Download ${a.filename}`} onPress={() => download.mutate(a)}>
                Download
              </Button>
              {(props.canDeleteAny || a.authorId === me) && (
                <Button tone="danger" aria-label={`Delete ${a.filename}`} onPress={() => remove.mutate(a)}>
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={download.error ?? remove.error} />
      {props.canAttach && (
        <div className="mt-3 text-sm">
          <label className="font-medium" htmlFor="attach-files">
            Attach files
          </label>
          <input
            id="attach-files"
            type="file"
            multiple
            disabled={upload.isPending}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              setDone('');
              if (files.length) upload.mutate(files);
            }}
          />
          {upload.isPending && <p role="status">Uploading…</p>}
          {done && <Done>{done}</Done>}
          <ErrorNote error={upload.error} />
        </div>
      )}
    </Section>
  );
}

function Comments(props: {
  orgId: string;
  issue: Issue;
  comments: IssueComment[];
  canComment: boolean;
  canEditAny: boolean;
  canDeleteAny: boolean;
  nameOf: (id: string) => string;
  onChange: () => unknown;
}) {
  const me = useMe().data?.me.userId;
  const [body, setBody, clear] = useDraft('comment', '');
  const add = useMutation({
    mutationFn: () => api().postIssuesComments({ orgId: props.orgId, issueKey: props.issue.key, body: { body } }),
    onSuccess: async () => {
      clear();
      await props.onChange();
    },
  });
  return (
    <Section title="Comments" id="comments">
      {props.comments.length === 0 && <p className="text-sm text-slate-700">No comments yet.</p>}
      <ol className="grid gap-3">
        {props.comments.map((c) => (
          <CommentItem
            key={c.commentId}
            {...props}
            comment={c}
            canEdit={props.canEditAny || c.authorId === me}
            canDelete={props.canDeleteAny || c.authorId === me}
          />
        ))}
      </ol>
      {props.canComment && (
        <form
          className="mt-4 grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <TextArea label="Add a comment" rows={3} isRequired value={body} onChange={setBody} />
          <div>
            <Button type="submit" tone="primary" isDisabled={add.isPending || !body.trim()}>
              Comment
            </Button>
          </div>
          <ErrorNote error={add.error} />
        </form>
      )}
    </Section>
  );
}

function CommentItem(props: {
  orgId: string;
  issue: Issue;
  comment: IssueComment;
  canEdit: boolean;
  canDelete: boolean;
  nameOf: (id: string) => string;
  onChange: () => unknown;
}) {
  const c = props.comment;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.body);
  const ids = { orgId: props.orgId, issueKey: props.issue.key, commentId: c.commentId };
  const edit = useMutation({
    mutationFn: () => api().patchIssuesCommentsByCommentId({ ...ids, body: { body: text } }),
    onSuccess: async () => {
      setEditing(false);
      await props.onChange();
    },
  });
  const remove = useMutation({
    mutationFn: () => api().deleteIssuesCommentsByCommentId(ids),
    onSuccess: () => props.onChange(),
  });
  const author = props.nameOf(c.authorId);
  return (
    <li className="rounded-lg border border-slate-200 p-3 text-sm">
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-medium">{author}</span>
        <span className="text-slate-700">
          {when(c.createdAt)}
          {c.updatedAt > c.createdAt + 1000 ? ' (edited)' : ''}
        </span>
      </div>
      {editing ? (
        <form
          className="mt-2 grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            edit.mutate();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
          }}
        >
          <TextArea label="Edit comment" rows={3} isRequired value={text} onChange={setText} />
          <div className="flex gap-2">
            <Button type="submit" tone="primary" isDisabled={edit.isPending}>
              Save
            </Button>
            <Button onPress={() => setEditing(false)}>Cancel</Button>
          </div>
          <ErrorNote error={edit.error} />
        </form>
      ) : (
        <p className="mt-1 whitespace-pre-wrap">{c.body}</p>
      )}
      {!editing && (props.canEdit || props.canDelete) && (
        <div className="mt-2 flex gap-2">
          {props.canEdit && (
            <Button
              aria-label={`Edit comment by ${author}, ${when(c.createdAt)}`}
              onPress={() => {
                setText(c.body);
                setEditing(true);
              }}
            >
              Edit
            </Button>
          )}
          {props.canDelete && (
            <Button
              tone="danger"
              aria-label={`Delete comment by ${author}, ${when(c.createdAt)}`}
              onPress={() => remove.mutate()}
              isDisabled={remove.isPending}
            >
              Delete
            </Button>
          )}
        </div>
      )}
      <ErrorNote error={remove.error} />
    </li>
  );
}

function WorkLog(props: {
  orgId: string;
  issue: Issue;
  worklogs: Worklog[];
  canLog: boolean;
  nameOf: (id: string) => string;
  onChange: () => unknown;
}) {
  const [form, setForm, clear] = useDraft('worklog', { timeSpent: '', comment: '' });
  const log = useMutation({
    mutationFn: () =>
      api().postIssuesWorklogs({
        orgId: props.orgId,
        issueKey: props.issue.key,
        body: { timeSpent: form.timeSpent.trim(), ...(form.comment.trim() ? { comment: form.comment } : {}) },
      }),
    onSuccess: async () => {
      clear();
      await props.onChange();
    },
  });
  return (
    <Section title="Work log" id="worklog">
      {props.worklogs.length === 0 ? (
        <p className="text-sm text-slate-700">No work logged.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {props.worklogs.map((w) => (
            <li key={w.worklogId} className="p-2 text-sm">
              <span className="font-medium">{props.nameOf(w.authorId)}</span> logged{' '}
              <strong>{duration(w.timeSpent)}</strong> · {when(w.started)}
              {w.comment && <p className="mt-1 whitespace-pre-wrap">{w.comment}</p>}
            </li>
          ))}
        </ul>
      )}
      {props.canLog && (
        <form
          className="mt-3 grid max-w-xl gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            log.mutate();
          }}
        >
          <TextInput
            label="Time spent"
            isRequired
            placeholder="e.g. 1h 30m"
            description="Weeks, days, hours and minutes: 1w 2d 3h 30m (a day is 8 hours)."
            value={form.timeSpent}
            onChange={(timeSpent) => setForm({ ...form, timeSpent })}
          />
          <TextInput
            label="Work description"
            value={form.comment}
            onChange={(comment) => setForm({ ...form, comment })}
          />
          <div>
            <Button type="submit" isDisabled={log.isPending}>
              Log work
            </Button>
          </div>
          <ErrorNote error={log.error} />
        </form>
      )}
    </Section>
  );
}

const FIELD_TITLES: Record<string, string> = {
  assignee: 'Assignee',
  reporter: 'Reporter',
  priority: 'Priority',
  resolution: 'Resolution',
  fixVersion: 'Fix versions',
};

/** The issue's history from its status log and its field log (who changed what, when). */
function History(props: { issue: Issue; nameOf: (id: string) => string; versionName: (id: string) => string }) {
  const { issue } = props;
  const valueName = (field: string, ids: string[]) => {
    const names = ids.map((id) =>
      field === 'priority'
        ? priorityName(id)
        : field === 'resolution'
          ? resolutionName(id)
          : field === 'fixVersion'
            ? props.versionName(id)
            : props.nameOf(id),
    );
    return names.length ? names.join(', ') : 'None';
  };
  const entries: { at: number; by?: string; text: string }[] = [];
  issue.statusLog.forEach(([statusId, at, by], i) => {
    const before = issue.statusLog[i - 1];
    entries.push({
      at,
      by,
      text: before
        ? `changed Status from ${statusName(before[0])} to ${statusName(statusId)}`
        : `created the issue in ${statusName(statusId)}`,
    });
  });
  for (const [field, before, after, at, by] of issue.fieldLog ?? []) {
    entries.push({
      at,
      by,
      text: `changed ${FIELD_TITLES[field] ?? field} from ${valueName(field, before)} to ${valueName(field, after)}`,
    });
  }
  entries.sort((a, b) => b.at - a.at);
  return (
    <Section title="History" id="history">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-700">No changes recorded.</p>
      ) : (
        <ol className="grid gap-1 text-sm">
          {entries.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log has no ids; its order is stable
            <li key={i}>
              <span className="font-medium">{e.by ? props.nameOf(e.by) : 'Someone'}</span> {e.text}{' '}
              <span className="text-slate-700">· {when(e.at)}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
