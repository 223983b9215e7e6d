import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterChange } from './live.ts';

/** A list read page by page, whose every answer waits until the test lets it go. */
function pagedList() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const pending: Array<() => void> = [];
  let version = 1;
  const observer = new InfiniteQueryObserver(queryClient, {
    queryKey: ['list'],
    initialPageParam: 0,
    getNextPageParam: (_last: string, pages: string[]) => (pages.length < 3 ? pages.length : undefined),
    queryFn: ({ pageParam }) => {
      const answer = `v${version} page ${pageParam}`;
      return new Promise<string>((resolve) => pending.push(() => resolve(answer)));
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  /** Answers every read asked for until `done` settles. */
  const answerUntil = async (done: Promise<unknown>) => {
    let settled = false;
    void done.finally(() => {
      settled = true;
    });
    while (!settled) {
      pending.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { queryClient, observer, unsubscribe, answerUntil, changeData: () => version++ };
}

describe('refetchAfterChange', () => {
  it('lets a next page under way arrive, then reads every page again', async () => {
    const list = pagedList();
    await list.answerUntil(list.observer.refetch());
    expect(list.observer.getCurrentResult().data?.pages).toEqual(['v1 page 0']);

    const nextPage = list.observer.fetchNextPage();
    list.changeData();
    await list.answerUntil(Promise.all([nextPage, refetchAfterChange(list.queryClient, ['list'])]));

    // The page asked for is there, and both pages were read after the change.
    expect(list.observer.getCurrentResult().data?.pages).toEqual(['v2 page 0', 'v2 page 1']);
    list.unsubscribe();
  });

  it('reads again a list whose pages are all in', async () => {
    const list = pagedList();
    await list.answerUntil(list.observer.refetch());
    list.changeData();
    await list.answerUntil(refetchAfterChange(list.queryClient, ['list']));
    expect(list.observer.getCurrentResult().data?.pages).toEqual(['v2 page 0']);
    list.unsubscribe();
  });
});
