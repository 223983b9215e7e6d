import { formatDistance, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import type { RunnerListItem } from '@csomag/domain/runner';
import { useState } from 'react';
import { QueryError, QueryState } from '../../components/query-state.tsx';
import { formatRating } from '../../components/ratings/rating-summary.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAdminLive, useAdminParcels, useAssign, useRunnersNear } from './api.ts';

const WAITING_CHOICES = 200;

const distanceLabel = (metres: number | null | undefined) =>
  metres === null || metres === undefined ? messages.adminRunnerPositionUnknown : formatDistance(metres);

/** The distance and, beside it, the runner's rating (issue 15). */
const choiceDetails = (runner: RunnerListItem) =>
  `${distanceLabel(runner.distanceMetres)} · ${formatRating(runner.rating)}`;

function ParcelDetails({ parcel }: { parcel: Parcel }) {
  return (
    <dl className="details" aria-label={messages.adminSelectedParcel}>
      <dt>{messages.categoryLabel}</dt>
      <dd>{parcel.category}</dd>
      <dt>{messages.weightLabel}</dt>
      <dd>{formatWeight(parcel.weightGrams)}</dd>
      <dt>{messages.senderLabel}</dt>
      <dd>{parcel.senderUser}</dd>
      <dt>{messages.adminFrom}</dt>
      <dd>{parcel.senderAddress}</dd>
      <dt>{messages.adminTo}</dt>
      <dd>{parcel.receiverAddress}</dd>
      <dt>{messages.statusLabel}</dt>
      <dd>
        <StatusBadge state={parcel.state} />
      </dd>
    </dl>
  );
}

function AssignForm({ parcels }: { parcels: Parcel[] }) {
  const [parcelId, setParcelId] = useState('');
  const [runner, setRunner] = useState('');
  const runners = useRunnersNear(parcelId);
  const assign = useAssign();
  const parcel = parcels.find((candidate) => candidate.id === parcelId);
  const candidates = runners.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="form card">
      <div className="field">
        <label htmlFor="assign-parcel">{messages.adminAssignParcel}</label>
        <select
          id="assign-parcel"
          value={parcelId}
          onChange={(event) => {
            setParcelId(event.target.value);
            setRunner('');
            assign.reset();
          }}
        >
          <option value="">{messages.adminChooseParcel}</option>
          {parcels.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.id}
            </option>
          ))}
        </select>
      </div>
      {parcel && <ParcelDetails parcel={parcel} />}
      <div className="field">
        <label htmlFor="assign-runner">{messages.runnerLabel}</label>
        <select
          id="assign-runner"
          value={runner}
          disabled={!parcelId}
          onChange={(event) => setRunner(event.target.value)}
        >
          <option value="">{messages.adminChooseRunner}</option>
          {candidates.map((candidate) => (
            <option key={candidate.userName} value={candidate.userName}>
              {messages.adminRunnerChoice(candidate.userName, candidate.name, choiceDetails(candidate))}
            </option>
          ))}
        </select>
      </div>
      {runners.isError && <QueryError error={runners.error} />}
      {parcelId && runner && <p>{messages.confirmAssign(parcelId, runner)}</p>}
      <button
        type="button"
        className="button primary"
        disabled={!parcelId || !runner || assign.isPending}
        onClick={() =>
          assign.mutate(
            { parcelId, runner },
            // The hook tells the result; this only clears the choice for the next parcel.
            {
              onSuccess: () => {
                setParcelId('');
                setRunner('');
              },
            },
          )
        }
      >
        {messages.adminAssignSubmit}
      </button>
    </div>
  );
}

/** SPEC §2.8 'Csomagok futárhoz rendelése': the nearest runners first; the same atomic change as a pickup. */
export function AssignPage() {
  const waiting = useAdminParcels({ status: 'waiting' }, WAITING_CHOICES);
  useAdminLive();
  return (
    <section className="page narrow">
      <h1>{messages.adminAssignTitle}</h1>
      <QueryState query={waiting}>{(data) => <AssignForm parcels={data.pages[0]?.items ?? []} />}</QueryState>
    </section>
  );
}
