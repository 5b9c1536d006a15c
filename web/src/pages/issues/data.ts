import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The organization's members: who an issue can be assigned to, and the names beside ids. */
export function useMembers(orgId: string) {
  const q = useQuery({
    queryKey: ['members', orgId],
    queryFn: () => api().getMembers({ orgId }),
    staleTime: 60_000,
  });
  const members = q.data?.members ?? [];
  const nameOf = (id: string | undefined) => {
    if (!id) return '';
    const m = members.find((x) => x.userId === id);
    return m?.name || m?.email || id;
  };
  return { members, nameOf };
}

export function useSpaces(orgId: string) {
  return useQuery({
    queryKey: ['tracker-spaces', orgId],
    queryFn: () => api().getIssuesSpaces({ orgId }),
    staleTime: 60_000,
  });
}

/** A space with its versions and components (and the caller's permissions in it). */
export function useSpace(orgId: string, spaceKey: string | undefined) {
  return useQuery({
    queryKey: ['tracker-space', orgId, spaceKey],
    queryFn: () => api().getIssuesSpacesBySpaceKey({ orgId, spaceKey: spaceKey as string }),
    enabled: Boolean(spaceKey),
    staleTime: 30_000,
  });
}

/** The sprints of a space's board (scrum spaces have one). */
export function useSprints(orgId: string, boardId: string | undefined) {
  return useQuery({
    queryKey: ['tracker-sprints', orgId, boardId],
    queryFn: () => api().getIssuesBoardsSprints({ orgId, boardId: boardId as string }),
    enabled: Boolean(boardId),
    staleTime: 30_000,
  });
}

export function useLabels(orgId: string, space?: string) {
  return useQuery({
    queryKey: ['tracker-labels', orgId, space ?? ''],
    queryFn: () => api().getIssuesLabels({ orgId, ...(space ? { space } : {}) }),
    staleTime: 30_000,
  });
}

/** `a, b ,c` → `['a', 'b', 'c']` (labels: no spaces inside, as Jira). */
export const listOf = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
