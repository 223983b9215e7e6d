import { messages } from '@csomag/domain/messages';
import { type Coordinates, type PointPrecision, parcelCreateBodySchema } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useDropPoints } from '../../api/attempts.ts';
import { isTransient } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { fieldChecks } from '../../components/form-checks.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelDetailFields, PhotoRequiredField } from '../../components/parcel-fields.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useNavigate } from '../../lib/router.tsx';
import { isQueued } from '../../offline/outbox.ts';
import { geocodeQuery, useCreateParcel } from './api.ts';
import { ENDS, type End, type EndPin, useEndPin } from './end-pin.ts';
import { SendMap, tapTargetId } from './send-map.tsx';

/** An empty optional field is no value, not an empty text. */
const optional = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const formSchema = parcelCreateBodySchema.pick({
  senderAddress: true,
  receiverAddress: true,
  category: true,
  weightGrams: true,
  recipientName: true,
  recipientPhone: true,
  receiverEmail: true,
  photoRequired: true,
  dropPointId: true,
});
/** As typed (the weight is text, '1,5 kg'); the schema turns it into the request's whole grams. */
type FormValues = z.input<typeof formSchema>;
type ParcelFields = z.output<typeof formSchema>;

/** Each end's address field. */
const addressField = { pickup: 'senderAddress', destination: 'receiverAddress' } as const;

const missingPin: Record<End, string> = {
  pickup: messages.pickupPinMissing,
  destination: messages.destinationPinMissing,
};

/**
 * A pin as the request carries it: where it is and how precisely ('manual' for the sender's own);
 * 'unplaced' when the geocoder could not be asked (offline: the server places the address when the
 * parcel reaches it); null when the address cannot be placed and the sender has placed no pin.
 */
type SentPin = { position: Coordinates; precision: PointPrecision } | 'unplaced' | null;

/** What an address's pin is, beside the address: the pin's line and, when it looks wrong, why. */
function pinHint(pin: EndPin) {
  if (!pin.line && !pin.warning) return null;
  return (
    <>
      {pin.line && <p className="pin-line">{pin.line}</p>}
      {pin.warning && <p className="pin-warning">{pin.warning}</p>}
    </>
  );
}

export function SendParcelPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const createParcel = useCreateParcel();
  const { data: account } = useSession();
  const form = useForm<FormValues, unknown, ParcelFields>({
    resolver: zodResolver(formSchema),
    ...fieldChecks,
    // Most parcels leave from home: the pickup address starts as the sender's own.
    defaultValues: { senderAddress: account?.address ?? '', receiverAddress: '', category: '', weightGrams: '' },
  });
  const { errors, isSubmitting } = form.formState;
  // A drop point instead of the door (issue 28): offered when the back office has any.
  const dropPoints = useDropPoints(true).data?.items ?? [];
  const [senderAddress, receiverAddress] = useWatch({
    control: form.control,
    name: ['senderAddress', 'receiverAddress'],
  });
  // The sender's own pins (a tap or a drag). Kept when the address is edited: the sender placed
  // them; a pin far from the new address is pointed out, with the way back to the address.
  const [hand, setHand] = useState<Record<End, Coordinates | null>>({ pickup: null, destination: null });
  const pins: Record<End, EndPin> = {
    pickup: useEndPin(senderAddress, hand.pickup),
    destination: useEndPin(receiverAddress, hand.destination),
  };
  // Which pin a tap places: the sender's choice, else the end that has no pin yet.
  const [tapChoice, setTapChoice] = useState<End | null>(null);
  const target: End = tapChoice ?? (pins.pickup.position ? 'destination' : 'pickup');
  const [missing, setMissing] = useState<End[]>([]);

  const place = (end: End, position: Coordinates | null) => setHand((pinned) => ({ ...pinned, [end]: position }));
  const placeOnMap = (end: End) => {
    setTapChoice(end);
    // The map comes into view (below the sticky header) with its choice on this end, focused.
    const radio = document.getElementById(tapTargetId(end));
    radio?.closest('.send-map')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    radio?.focus({ preventScroll: true });
  };

  /** The pin to send for an end: the sender's, else the geocoder's answer for the address as sent. */
  async function pinToSend(end: End, address: string): Promise<SentPin> {
    const own = hand[end];
    if (own) return { position: own, precision: 'manual' };
    try {
      const placed = await queryClient.fetchQuery(geocodeQuery(address.trim()));
      return { position: { lat: placed.lat, lng: placed.lng }, precision: placed.precision };
    } catch (error) {
      return isTransient(error) ? 'unplaced' : null;
    }
  }

  const onSubmit = form.handleSubmit(async ({ recipientName, recipientPhone, receiverEmail, ...values }) => {
    const [pickup, destination] = await Promise.all([
      pinToSend('pickup', values.senderAddress),
      pinToSend('destination', values.receiverAddress),
    ]);
    // A runner goes to the pins: each end needs one — the address's, or one the sender placed.
    const lacking = ENDS.filter((end) => (end === 'pickup' ? pickup : destination) === null);
    setMissing(lacking);
    const [first] = lacking;
    if (first) {
      form.setFocus(addressField[first]);
      return;
    }
    try {
      const parcel = await createParcel.mutateAsync({
        ...values,
        ...(recipientName ? { recipientName } : {}),
        ...(recipientPhone ? { recipientPhone } : {}),
        ...(receiverEmail ? { receiverEmail } : {}),
        ...(pickup && pickup !== 'unplaced'
          ? { senderCoordinates: pickup.position, senderPrecision: pickup.precision }
          : {}),
        ...(destination && destination !== 'unplaced'
          ? { receiverCoordinates: destination.position, receiverPrecision: destination.precision }
          : {}),
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

  // Said while the end still has no pin: a tap on the map answers it at once.
  const stillMissing = missing.filter((end) => !pins[end].position).map((end) => missingPin[end]);
  const summary = stillMissing.length > 0 ? stillMissing.join(' ') : serverSummary(errors);

  const addressLabels = { pickup: messages.senderAddressLabel, destination: messages.receiverAddressLabel };
  const addressPlaceholders = {
    pickup: messages.senderAddressPlaceholder,
    destination: messages.receiverAddressPlaceholder,
  };

  return (
    <section className="page">
      <h1>{messages.sendParcelTitle}</h1>
      <form className="send-form" onSubmit={onSubmit} noValidate>
        <div className="form card send-addresses">
          {ENDS.map((end) => {
            const pin = pins[end];
            return (
              <div key={end} className="address-pin">
                <FormField
                  label={addressLabels[end]}
                  autoComplete="off"
                  placeholder={addressPlaceholders[end]}
                  error={errors[addressField[end]]?.message ?? pin.failure}
                  hint={pinHint(pin)}
                  {...form.register(addressField[end])}
                />
                {pin.canReturn && (
                  <div className="card-actions">
                    <button type="button" className="button" onClick={() => place(end, null)}>
                      {messages.pinBackToAddress}
                    </button>
                  </div>
                )}
                {pin.placeOnMap && (
                  <div className="card-actions">
                    <button type="button" className="button" onClick={() => placeOnMap(end)}>
                      {messages.pinPlaceOnMap}
                    </button>
                  </div>
                )}
              </div>
            );
          })}
        </div>
        <SendMap
          pins={pins}
          // The geocoder's answers only: a pin the sender moves never moves the map under them.
          placedKey={JSON.stringify(ENDS.map((end) => pins[end].placedAt))}
          target={target}
          onTarget={setTapChoice}
          onPlace={place}
        />
        <div className="form card send-details">
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
          <FormField
            label={messages.receiverEmailLabel}
            type="email"
            autoComplete="off"
            hint={messages.receiverEmailHint}
            error={errors.receiverEmail?.message}
            {...form.register('receiverEmail', { setValueAs: optional })}
          />
          <PhotoRequiredField register={form.register} />
          {dropPoints.length > 0 && (
            <div className="field">
              <label htmlFor="send-drop-point">{messages.sendDropPointLabel}</label>
              <select
                id="send-drop-point"
                aria-describedby="send-drop-point-hint"
                {...form.register('dropPointId', { setValueAs: (value) => (value ? Number(value) : undefined) })}
              >
                <option value="">{messages.sendToTheDoor}</option>
                {dropPoints.map((point) => (
                  <option key={point.id} value={point.id}>
                    {messages.dropPointOption(point.name, point.address, point.openingHours)}
                  </option>
                ))}
              </select>
              <p id="send-drop-point-hint" className="muted">
                {messages.sendDropPointHint}
              </p>
            </div>
          )}
          <FormError message={summary} />
          <SubmitButton busy={isSubmitting}>{messages.sendParcelSubmit}</SubmitButton>
        </div>
      </form>
    </section>
  );
}
