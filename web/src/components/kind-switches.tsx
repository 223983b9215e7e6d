import type { UseQueryResult } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { QueryState } from './query-state.tsx';

/**
 * One switch per kind of notification (push on the profile, and status mail): each saved on its
 * own, said as saved once the server answered, the switches held while a save is under way.
 */
export function KindSwitches<K extends string>({
  legend,
  kinds,
  labels,
  state,
  save,
  saving,
  saved,
  className,
}: {
  legend: string;
  kinds: readonly K[];
  labels: Record<K, string>;
  state: UseQueryResult<Record<K, boolean>>;
  /** Saves one switch (the mutation's mutateAsync); `saving` while it is under way. */
  save: (kind: K, on: boolean) => Promise<unknown>;
  saving: boolean;
  saved: string;
  className: string;
}) {
  async function toggle(kind: K, on: boolean) {
    try {
      await save(kind, on);
      notify.success(saved);
    } catch (error) {
      notify.error(error);
    }
  }
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      <QueryState query={state}>
        {(switches) => (
          <>
            {kinds.map((kind) => (
              <label key={kind} className="push-kind">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={switches[kind]}
                  checked={switches[kind]}
                  disabled={saving}
                  onChange={(event) => void toggle(kind, event.target.checked)}
                />{' '}
                {labels[kind]}
              </label>
            ))}
          </>
        )}
      </QueryState>
    </fieldset>
  );
}
