import { messages } from '@csomag/domain/messages';

/** What a paged read offers for its next page (TanStack's infinite query). */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The 'load more' button under a paged list: shown while there is a next page, disabled while it loads. */
export function LoadMore({ query }: { query: PagedQuery }) {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" className="button" disabled={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
      {messages.loadMore}
    </button>
  );
}
