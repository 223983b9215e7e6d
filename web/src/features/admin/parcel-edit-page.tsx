import { type ParcelAdminUpdate, parcelAdminUpdateSchema } from '@csomag/domain/admin';
import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import {
  backOfficeStatusChange,
  type Coordinates,
  PARCEL_STATUSES,
  type ParcelDetail,
  type PointPrecision,
  parcelStatusLabels,
} from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { parcelDetailQuery } from '../../api/parcel.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { PrecisionNotes } from '../../components/place-precision.tsx';
import { ProofSection } from '../../components/proof/proof-section.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, useParams } from '../../lib/router.tsx';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useAdminLive, useHandOver, useParcelDetail, useUpdateParcel } from './api.ts';
import { CustodyChain } from './custody-chain.tsx';
import { CustodyOverride } from './custody-override.tsx';
import { ParcelTimeline } from './parcel-timeline.tsx';

const editSchema = parcelAdminUpdateSchema
  .pick({ category: true, status: true, senderAddress: true, receiverAddress: true })
  .required()
  // The server checks the reason (whether it is needed, and its length) and answers beside the field.
  .extend({ reason: z.string().optional() });
type Values = z.infer<typeof editSchema>;

/** Both ends of the parcel on a map, framed together; each can be looked at closely and dragged to the door. */
function ParcelPins({
  pickup,
  destination,
  precision,
  framedKey,
  focus,
  onFocus,
  onMove,
}: {
  pickup: Coordinates;
  destination: Coordinates;
  /** How precisely each pin is known: a dragged one is placed by hand. */
  precision: { pickup: PointPrecision | null; destination: PointPrecision | null };
  /** The saved points: the map frames both again when they change, not while a pin is dragged. */
  framedKey: string;
  focus: Coordinates | null;
  onFocus: (point: Coordinates | null) => void;
  onMove: (end: 'pickup' | 'destination', position: Coordinates) => void;
}) {
  const pin = (kind: 'pickup' | 'destination', title: string, position: Coordinates): MapMarker => ({
    key: kind,
    kind,
    title,
    position,
    draggable: true,
    onDragEnd: (moved) => onMove(kind, moved),
  });
  const markers = [
    pin('pickup', messages.mapPickupPoint, pickup),
    pin('destination', messages.mapDestinationPoint, destination),
  ];
  return (
    <div className="field">
      <LazyMap
        label={messages.mapBothPointsLabel}
        center={pickup}
        zoom={12}
        height="320px"
        frame={focus ? { focus } : { fit: [pickup, destination], key: framedKey }}
        markers={markers}
      />
      <PrecisionNotes pickup={precision.pickup} destination={precision.destination} />
      <div className="card-actions">
        <button type="button" className="button" onClick={() => onFocus(focus === pickup ? null : pickup)}>
          {messages.showPin(messages.mapPickupPoint)}
        </button>
        <button type="button" className="button" onClick={() => onFocus(focus === destination ? null : destination)}>
          {messages.showPin(messages.mapDestinationPoint)}
        </button>
      </div>
    </div>
  );
}

function ParcelEditForm({ parcel }: { parcel: ParcelDetail }) {
  const update = useUpdateParcel(parcel.id);
  const handOver = useHandOver();
  const form = useForm<Values>({
    resolver: zodResolver(editSchema),
    mode: 'onTouched',
    values: {
      category: parcel.category,
      status: parcel.status,
      senderAddress: parcel.senderAddress,
      receiverAddress: parcel.receiverAddress,
    },
  });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  // A correction (taking a parcel from its runner, undoing a delivery) says why: the server asks too.
  const status = form.watch('status');
  const needsReason = status !== parcel.status && backOfficeStatusChange(parcel.status, status) === 'needs_reason';
  // Pins dragged on the map: they win over placing the address again (the server keeps them as placed by hand).
  const [moved, setMoved] = useState<Partial<Record<'senderCoordinates' | 'receiverCoordinates', Coordinates>>>({});
  const [focus, setFocus] = useState<Coordinates | null>(null);
  // Only what changed goes to the server: an unchanged address is not geocoded again.
  const onSubmit = form.handleSubmit(async (values) => {
    const changed = Object.fromEntries(
      Object.entries(values).filter(([field]) => field !== 'reason' && dirtyFields[field as keyof Values]),
    ) as ParcelAdminUpdate;
    if (needsReason && values.reason) changed.reason = values.reason;
    Object.assign(changed, moved);
    // The version this form showed: a parcel changed since is refused, not overwritten (ADR 0006).
    changed.version = parcel.version;
    try {
      await update.mutateAsync(changed);
      setMoved({});
      notify.success(messages.parcelSaved);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <FormField label={messages.adminParcelId} value={parcel.id} readOnly disabled />
      <FormField label={messages.adminParcelCreatedAt} value={formatTimestamp(parcel.createdAt)} readOnly disabled />
      <p className="muted">
        {messages.adminParcelSummary(
          formatWeight(parcel.weightGrams),
          parcel.senderUser,
          parcel.runner ?? messages.waitingForRunner,
        )}
      </p>
      <FormField label={messages.categoryLabel} error={errors.category?.message} {...form.register('category')} />
      <div className="field">
        <label htmlFor="parcel-status">{messages.statusLabel}</label>
        <select id="parcel-status" {...form.register('status')}>
          {PARCEL_STATUSES.filter(
            // A return reaches and leaves 'returned' only through its own flow: never offered here.
            (option) => option === parcel.status || backOfficeStatusChange(parcel.status, option) !== 'own_flow',
          ).map((option) => (
            <option
              key={option}
              value={option}
              // Only pickup or assignment gives a parcel its runner.
              disabled={option !== parcel.status && backOfficeStatusChange(parcel.status, option) === 'needs_runner'}
            >
              {parcelStatusLabels[option]}
            </option>
          ))}
        </select>
        {errors.status?.message && <p className="field-error">{errors.status.message}</p>}
      </div>
      {needsReason && (
        <FormField label={messages.adminReason} error={errors.reason?.message} {...form.register('reason')} />
      )}
      <FormField
        label={messages.senderAddressLabel}
        error={errors.senderAddress?.message}
        {...form.register('senderAddress')}
      />
      <FormField
        label={messages.receiverAddressLabel}
        error={errors.receiverAddress?.message}
        {...form.register('receiverAddress')}
      />
      <ParcelPins
        pickup={moved.senderCoordinates ?? parcel.senderCoordinates}
        destination={moved.receiverCoordinates ?? parcel.receiverCoordinates}
        precision={{
          pickup: moved.senderCoordinates ? 'manual' : parcel.senderPrecision,
          destination: moved.receiverCoordinates ? 'manual' : parcel.receiverPrecision,
        }}
        framedKey={JSON.stringify([parcel.senderCoordinates, parcel.receiverCoordinates])}
        focus={focus}
        onFocus={setFocus}
        onMove={(end, position) =>
          setMoved((current) => ({
            ...current,
            [end === 'pickup' ? 'senderCoordinates' : 'receiverCoordinates']: position,
          }))
        }
      />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <SubmitButton busy={isSubmitting}>{messages.adminEditParcelSubmit}</SubmitButton>
        <button
          type="button"
          className="button"
          disabled={parcel.status !== 'in_transit' || handOver.isPending}
          onClick={() => handOver.mutate(parcel.id)}
        >
          {messages.adminHandOver}
        </button>
        <Link className="button" to={paths.adminParcels}>
          {messages.adminBack}
        </Link>
      </div>
    </form>
  );
}

export function AdminParcelEditPage() {
  const parcelId = useParams().packageId ?? '';
  const parcel = useParcelDetail(parcelId);
  useAdminLive([parcelDetailQuery(parcelId).queryKey]);
  return (
    <section className="page">
      <h1>{messages.adminEditParcelTitle}</h1>
      <QueryState query={parcel}>
        {(data) => (
          <div className="profile-layout">
            <ParcelEditForm parcel={data} />
            <ParcelTimeline title={messages.timelineTitle} events={data.events} />
            <CustodyChain parcelId={data.id} />
            <ProofSection parcel={data} audit />
            {/* Only a parcel on its way has a runner to correct (the server refuses the rest too). */}
            {data.status === 'in_transit' && <CustodyOverride parcel={data} />}
          </div>
        )}
      </QueryState>
    </section>
  );
}
