import { messages } from '@csomag/domain/messages';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryState } from '../query-state.tsx';

/** A paged list of rating comments, newest first, with its loading, error and empty states and 'Továbbiak'. */
export function RatingCommentList<Item extends { id: number }>({
  query,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: Item[] }>>;
  empty: string;
  children: (item: Item) => ReactNode;
}) {
  return (
    <>
      <QueryState query={query} empty={empty} isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}>
        {(data) => (
          <ul className="parcel-list">
            {data.pages
              .flatMap((page) => page.items)
              .map((item) => (
                <li key={item.id}>{children(item)}</li>
              ))}
          </ul>
        )}
      </QueryState>
      {query.hasNextPage && (
        <button
          type="button"
          className="button"
          disabled={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
        >
          {messages.loadMore}
        </button>
      )}
    </>
  );
}
