import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api } from './api';

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => api().getMe(), staleTime: 60_000 });

/** The organization of the page (`/orgs/:orgId/…`). */
export function useOrgId(): string {
  const { orgId } = useParams();
  if (!orgId) throw new Error('This page belongs to an organization.');
  return orgId;
}

export function useParam(name: string): string {
  const value = useParams()[name];
  if (value === undefined) throw new Error(`This page needs ${name}.`);
  return value;
}

/** The scopes the person has in the page's organization (to offer only what they may do). */
export function useCan(scope: string): boolean {
  const orgId = useParams().orgId;
  const me = useMe().data?.me;
  return me?.orgs.find((o) => o.orgId === orgId)?.scopes.includes(scope as never) ?? false;
}

/** An address for a host the API names: the local edge serves http, elsewhere https. */
export const hostUrl = (host: string) =>
  /(^|\.)localhost(:\d+)?$/.test(host) || /^127\./.test(host) ? `http://${host}` : `https://${host}`;
