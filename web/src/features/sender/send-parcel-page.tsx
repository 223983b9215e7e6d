import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { type Coordinates, type PointPrecision, parcelCreateBodySchema } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { fieldChecks } from '../../components/form-checks.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelDetailFields, PhotoRequiredField } from '../../components/parcel-fields.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { isQueued } from '../../offline/outbox.ts';
import { useCreateParcel, useGeocode } from './api.ts';

/** An empty optional field is no value, not an empty text. */
const optional = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const formSchema = parcelCreateBodySchema.pick({
  senderAddress: true,
  receiverAddress: true,
  category: true,
  weightGrams: true,
  recipientName: true,
  recipientPhone: true,
  photoRequired: true,
});
/** As typed (the weight is text, '1,5 kg'); the schema turns it into the request's whole grams. */
type FormValues = z.input<typeof formSchema>;
type ParcelFields = z.output<typeof formSchema>;

/**
 * A pin the sender has looked at: confirmed where the address was placed, or dragged (by hand).
 * Remembered with the address text it belongs to, so editing the address asks again.
 */
interface Pin {
  address: string;
  position: Coordinates;
  precision: PointPrecision;
}

/** Where a point is: the sender's pin while the address is unchanged, else the geocoded point. */
function usePoint(address: string, pin: Pin | null) {
  const geocode = useGeocode(address);
  const pinned = pin && pin.address === address.trim() ? pin : null;
  return {
    position: pinned?.position ?? geocode.data ?? null,
    precision: pinned?.precision ?? geocode.data?.precision ?? null,
    pinned,
    // The server's words (SPEC §5's geocoding message), beside the address it could not place.
    failure: geocode.isError ? errorMessage(geocode.error) : undefined,
  };
}

type End = 'pickup' | 'destination';

export function SendParcelPage() {
  const navigate = useNavigate();
  const createParcel = useCreateParcel();
  const { data: account } = useSession();
  const form = useForm<FormValues, unknown, ParcelFields>({
    resolver: zodResolver(formSchema),
    ...fieldChecks,
    // Most parcels leave from home: the pickup address starts as the sender's own.
    defaultValues: { senderAddress: account?.address ?? '', receiverAddress: '', category: '', weightGrams: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const [senderAddress, receiverAddress] = useWatch({
    control: form.control,
    name: ['senderAddress', 'receiverAddress'],
  });
  const [senderPin, setSenderPin] = useState<Pin | null>(null);
  const [receiverPin, setReceiverPin] = useState<Pin | null>(null);
  const sender = usePoint(senderAddress, senderPin);
  const receiver = usePoint(receiverAddress, receiverPin);
  const [focus, setFocus] = useState<End | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);

  const onSubmit = form.handleSubmit(async ({ recipientName, recipientPhone, ...values }) => {
    // A runner delivers at the pins: the sender has looked at both (and dragged them to the door).
    if (!sender.pinned || !receiver.pinned) {
      setUnconfirmed(true);
      return;
    }
    try {
      const parcel = await createParcel.mutateAsync({
        ...values,
        ...(recipientName ? { recipientName } : {}),
        ...(recipientPhone ? { recipientPhone } : {}),
        senderCoordinates: sender.pinned.position,
        senderPrecision: sender.pinned.precision,
        receiverCoordinates: receiver.pinned.position,
        receiverPrecision: receiver.pinned.precision,
      });
      notify.success(messages.parcelSent);
      navigate(paths.tracking(parcel.id));
    } catch (error) {
      // Kept for when the connection returns (src/offline/outbox.ts), which then tells the result.
      if (isQueued(error)) {
        notify.info(messages.actionQueued);
        navigate(paths.sentParcels);
        return;
      }
      applyServerErrors(error, form.setError);
    }
  });

  const ends = {
    pickup: { point: sender, address: senderAddress, setPin: setSenderPin, title: messages.mapPickupPoint },
    destination: {
      point: receiver,
      address: receiverAddress,
      setPin: setReceiverPin,
      title: messages.mapDestinationPoint,
    },
  } as const;
  const markers: MapMarker[] = [];
  for (const [kind, end] of Object.entries(ends) as [End, (typeof ends)[End]][]) {
    if (!end.point.position) continue;
    markers.push({
      key: kind,
      kind,
      title: end.title,
      position: end.point.position,
      draggable: true,
      // Dragged is placed by hand, and looked at.
      onDragEnd: (position) => end.setPin({ address: end.address.trim(), position, precision: 'manual' }),
    });
  }
  const focused = focus ? ends[focus].point.position : null;

  return (
    <section className="page">
      <h1>{messages.sendParcelTitle}</h1>
      <div className="send-layout">
        <form className="form card" onSubmit={onSubmit} noValidate>
          <FormField
            label={messages.senderAddressLabel}
            autoComplete="off"
            placeholder={messages.senderAddressPlaceholder}
            error={errors.senderAddress?.message ?? sender.failure}
            {...form.register('senderAddress')}
          />
          <FormField
            label={messages.receiverAddressLabel}
            autoComplete="off"
            placeholder={messages.receiverAddressPlaceholder}
            error={errors.receiverAddress?.message ?? receiver.failure}
            {...form.register('receiverAddress')}
          />
          <ParcelDetailFields register={form.register} errors={errors} control={form.control} />
          <FormField
            label={messages.recipientNameLabel}
            autoComplete="off"
            error={errors.recipientName?.message}
            {...form.register('recipientName', { setValueAs: optional })}
          />
          <FormField
            label={messages.recipientPhoneLabel}
            type="tel"
            autoComplete="off"
            placeholder={messages.recipientPhonePlaceholder}
            error={errors.recipientPhone?.message}
            {...form.register('recipientPhone', { setValueAs: optional })}
          />
          <PhotoRequiredField register={form.register} />
          <FormError
            message={
              unconfirmed && !(sender.pinned && receiver.pinned) ? messages.pinsUnconfirmed : serverSummary(errors)
            }
          />
          <SubmitButton busy={isSubmitting}>{messages.sendParcelSubmit}</SubmitButton>
        </form>
        <div className="send-map">
          {markers.length > 0 ? (
            <>
              <p className="muted">{messages.pinsHelp}</p>
              <LazyMap
                label={messages.mapBothPointsLabel}
                center={markers[0]?.position ?? DEFAULT_MAP_CENTRE}
                zoom={12}
                height="360px"
                frame={focused ? { focus: focused } : { fit: markers.map((marker) => marker.position) }}
                markers={markers}
              />
              <ul className="pin-checks">
                {(Object.entries(ends) as [End, (typeof ends)[End]][]).map(([kind, end]) =>
                  end.point.position ? (
                    <li key={kind}>
                      <button type="button" className="button" onClick={() => setFocus(focus === kind ? null : kind)}>
                        {focus === kind ? messages.showBothPins : messages.showPin(end.title)}
                      </button>
                      {end.point.pinned ? (
                        <span className="pin-ok">{messages.pinConfirmed(end.title)}</span>
                      ) : (
                        <button
                          type="button"
                          className="button primary"
                          onClick={() => {
                            const { position, precision } = end.point;
                            if (position && precision) end.setPin({ address: end.address.trim(), position, precision });
                          }}
                        >
                          {messages.confirmPin(end.title)}
                        </button>
                      )}
                    </li>
                  ) : null,
                )}
              </ul>
            </>
          ) : (
            <p className="muted card">{messages.pinsMapHint}</p>
          )}
        </div>
      </div>
    </section>
  );
}
