import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/client.ts';
import { Loading } from './loading.tsx';

type DescribeError = (error: unknown) => string;

/**
 * A failed read, said the one way every screen says it: in the server's words, unless the screen
 * words some codes its own way (`describe`).
 */
export function QueryError({
  error,
  describe = errorMessage,
}: {
  error: unknown;
  describe?: DescribeError | undefined;
}) {
  return (
    <p role="alert" className="form-error">
      {describe(error)}
    </p>
  );
}

/** What a screen shows when there is nothing to list. */
export function Empty({ text }: { text: string }) {
  return <p className="empty">{text}</p>;
}

/**
 * The loading, error and empty states of any read, shown one way everywhere; `children` renders the
 * data once there is some. `isEmpty` (with `empty`, the text) says when the data is an empty list;
 * `describeError` words some error codes the screen's own way.
 */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  describeError,
  children,
}: {
  query: UseQueryResult<T> | UseInfiniteQueryResult<T>;
  empty?: string;
  isEmpty?: (data: T) => boolean;
  describeError?: DescribeError;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  // Without a connection, what was last read stays on screen (the offline banner says since when).
  const offlineWithData = query.data !== undefined && query.error instanceof ApiError && query.error.code === 'network';
  if (query.isError && !offlineWithData) return <QueryError error={query.error} describe={describeError} />;
  const data = query.data as T;
  if (empty !== undefined && isEmpty?.(data)) return <Empty text={empty} />;
  return <>{children(data)}</>;
}
