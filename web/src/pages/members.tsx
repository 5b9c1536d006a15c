import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan, useMe, useOrgId } from '../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, SelectField, TextInput, when } from '../ui/controls';

type Role = 'owner' | 'admin' | 'developer' | 'viewer';
const ROLES: { id: Role; label: string }[] = [
  { id: 'owner', label: 'Owner' },
  { id: 'admin', label: 'Admin' },
  { id: 'developer', label: 'Developer' },
  { id: 'viewer', label: 'Viewer' },
];

export default function Members() {
  const orgId = useOrgId();
  const canWrite = useCan('members:write');
  const me = useMe().data?.me;
  const members = useQuery({ queryKey: ['members', orgId], queryFn: () => api().getMembers({ orgId }) });
  return (
    <div>
      <PageTitle title="Members">Members</PageTitle>
      {members.isPending && <Loading what="members" />}
      <ErrorNote error={members.error} />
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {members.data?.members.map((m) => (
          <MemberRow key={m.userId} orgId={orgId} member={m} canWrite={canWrite && m.userId !== me?.userId} />
        ))}
      </ul>
      <Section title="Invitations">
        {members.data?.invites?.length ? (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {members.data.invites.map((i) => (
              <InviteRow key={i.inviteId} orgId={orgId} invite={i} canWrite={canWrite} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">No invitations waiting.</p>
        )}
        {canWrite && <Invite orgId={orgId} />}
      </Section>
    </div>
  );
}

function MemberRow(props: {
  orgId: string;
  canWrite: boolean;
  member: { userId: string; role: Role; email?: string; name?: string; joinedAt?: number };
}) {
  const { member: m, orgId } = props;
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['members', orgId] });
  const change = useMutation({
    mutationFn: (role: Role) => api().patchMembersByUserId({ orgId, userId: m.userId, body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api().deleteMembersByUserId({ orgId, userId: m.userId }),
    onSuccess: refresh,
  });
  const who = m.name ?? m.email ?? m.userId;
  return (
    <li className="flex flex-wrap items-end gap-x-4 gap-y-2 p-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="font-medium">{who}</p>
        <p className="text-slate-700">
          {m.email} {m.joinedAt ? `· joined ${when(m.joinedAt)}` : ''}
        </p>
      </div>
      {props.canWrite ? (
        <>
          <SelectField
            label={`Role of ${who}`}
            className="w-40"
            value={m.role}
            onChange={(role) => change.mutate(role)}
            options={ROLES}
          />
          <Button
            tone="danger"
            onPress={() => remove.mutate()}
            isDisabled={remove.isPending}
            aria-label={`Remove ${who}`}
          >
            Remove
          </Button>
        </>
      ) : (
        <span>{m.role}</span>
      )}
      <div className="basis-full">
        <ErrorNote error={change.error ?? remove.error} />
      </div>
    </li>
  );
}

function InviteRow(props: {
  orgId: string;
  canWrite: boolean;
  invite: { inviteId: string; email: string; role: Role; expiresAt: number };
}) {
  const { invite, orgId } = props;
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api().deleteMembersInvitesByInviteId({ orgId, inviteId: invite.inviteId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['members', orgId] }),
  });
  return (
    <li className="flex flex-wrap items-center gap-3 p-3 text-sm">
      <span className="font-medium">{invite.email}</span>
      <span>{invite.role}</span>
      <span className="text-slate-700">expires {when(invite.expiresAt)}</span>
      {props.canWrite && (
        <div className="ml-auto">
          <Button
            tone="danger"
            onPress={() => revoke.mutate()}
            isDisabled={revoke.isPending}
            aria-label={`Revoke the invitation of ${invite.email}`}
          >
            Revoke
          </Button>
          <ErrorNote error={revoke.error} />
        </div>
      )}
    </li>
  );
}

function Invite({ orgId }: { orgId: string }) {
  const [form, setForm, clear] = useDraft('invite', { email: '', role: 'developer' as Role });
  const client = useQueryClient();
  const invite = useMutation({
    mutationFn: () => api().postMembersInvites({ orgId, body: form }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['members', orgId] });
    },
  });
  return (
    <form
      className="mt-4 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        invite.mutate();
      }}
    >
      <TextInput
        label="Email"
        type="email"
        isRequired
        value={form.email}
        onChange={(email) => setForm({ ...form, email })}
      />
      <SelectField
        label="Role"
        className="w-40"
        value={form.role}
        onChange={(role) => setForm({ ...form, role })}
        options={ROLES}
      />
      <Button type="submit" tone="primary" isDisabled={invite.isPending}>
        Invite
      </Button>
      <div className="basis-full">
        <ErrorNote error={invite.error} />
      </div>
    </form>
  );
}
