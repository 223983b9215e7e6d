import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadMore } from '../load-more.tsx';
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
      <LoadMore query={query} />
    </>
  );
}
