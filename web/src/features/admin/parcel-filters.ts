import { PARCEL_STATES, type ParcelState } from '@csomag/domain/parcel-states';
import { useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/router.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import type { ParcelFilters } from './api.ts';

/** The list's filters in its address (Hungarian, like SPEC's paths), so a filtered list can be linked and reloaded. */
const PARAM = { status: 'statusz', runner: 'futar', sender: 'felado', multiLeg: 'tobbszakaszos' } as const;

const isStatus = (value: string | null): value is ParcelState =>
  value !== null && (PARCEL_STATES as readonly string[]).includes(value);

/** A field's text once the address names another value (a field only being typed into keeps its text). */
const follow = (url: string) => (typed: string) => (typed.trim() === url ? typed : url);

/**
 * The back office list's filters, read from and written to the address. Choices (status, multi-leg)
 * go there at once; typed names once typing pauses, replacing the entry rather than adding one
 * per keystroke. A name typed but not yet settled is the field's own state.
 */
export function useParcelFilters() {
  const [params, setParams] = useSearchParams();
  const statusParam = params.get(PARAM.status);
  const urlStatus: ParcelState | '' = isStatus(statusParam) ? statusParam : '';
  const urlMultiLeg = params.get(PARAM.multiLeg) === '1';
  // Shown as chosen at once: the address changes in a transition, and a control that waited for it
  // would show the old choice for a moment (and a tap on a busy phone would seem not to take).
  const [status, showStatus] = useState(urlStatus);
  const [multiLeg, showMultiLeg] = useState(urlMultiLeg);
  useEffect(() => showStatus(urlStatus), [urlStatus]);
  useEffect(() => showMultiLeg(urlMultiLeg), [urlMultiLeg]);
  const [runner, setRunner] = useState(() => params.get(PARAM.runner) ?? '');
  const [sender, setSender] = useState(() => params.get(PARAM.sender) ?? '');
  const settledRunner = useDebounced(runner.trim(), 300);
  const settledSender = useDebounced(sender.trim(), 300);

  // From the address as it is now, not as this render read it: a name settling just after a
  // status was chosen (its navigation still in its transition) would write the old status back.
  const set = (changes: Partial<Record<keyof typeof PARAM, string>>, replace = false) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        for (const [key, value] of Object.entries(changes) as [keyof typeof PARAM, string][]) {
          if (value) next.set(PARAM[key], value);
          else next.delete(PARAM[key]);
        }
        return next;
      },
      { replace },
    );

  const urlRunner = params.get(PARAM.runner) ?? '';
  const urlSender = params.get(PARAM.sender) ?? '';
  // Only a newly settled name writes the address: watching the address too would write the typed
  // name back over a step back in the history.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address and `set` are read, not watched
  useEffect(() => {
    if (settledRunner !== urlRunner || settledSender !== urlSender) {
      set({ runner: settledRunner, sender: settledSender }, true);
    }
  }, [settledRunner, settledSender]);

  // The address changed by itself (back, forward, a link): the fields follow it.
  useEffect(() => setRunner(follow(urlRunner)), [urlRunner]);
  useEffect(() => setSender(follow(urlSender)), [urlSender]);

  const filters: ParcelFilters = {
    status: urlStatus || undefined,
    runner: urlRunner || undefined,
    sender: urlSender || undefined,
    multiLeg: urlMultiLeg ? 'true' : undefined,
  };
  return {
    filters,
    status,
    setStatus: (value: ParcelState | '') => {
      showStatus(value);
      set({ status: value });
    },
    runner,
    setRunner,
    sender,
    setSender,
    multiLeg,
    setMultiLeg: (on: boolean) => {
      showMultiLeg(on);
      set({ multiLeg: on ? '1' : '' });
    },
  };
}
