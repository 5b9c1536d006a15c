import { QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { ApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer is the answer: only a lost connection or a 5xx is tried again.
      retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status === 0 || err.status >= 500),
      staleTime: 10_000,
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * A list the API pages with `cursor`: the first page, then each next one when asked for
 * (`more()`), until the API answers `cursor: null`.
 */
export function useCursorList<Item, Page extends { cursor: string | null }>(
  queryKey: unknown[],
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
  /** While this holds of the items, the list is read again every 2 seconds (a build running). */
  options: { poll?: (items: Item[]) => boolean } = {},
) {
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.cursor ?? undefined,
    refetchInterval: (query) => (options.poll?.(query.state.data?.pages.flatMap(itemsOf) ?? []) ? 2000 : false),
  });
  return {
    items: q.data?.pages.flatMap(itemsOf) ?? [],
    error: q.error,
    isPending: q.isPending,
    hasMore: q.hasNextPage,
    loadingMore: q.isFetchingNextPage,
    more: () => void q.fetchNextPage(),
    refetch: q.refetch,
  };
}
