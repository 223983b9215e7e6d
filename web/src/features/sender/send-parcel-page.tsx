import { messages } from '@csomag/domain/messages';
import { type Coordinates, type ParcelCreateBody, parcelCreateBodySchema } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelDetailFields } from '../../components/parcel-fields.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useCreateParcel, useGeocode } from './api.ts';

type FormValues = Omit<ParcelCreateBody, 'senderCoordinates' | 'receiverCoordinates' | 'senderUser'>;
const formSchema = parcelCreateBodySchema.pick({
  senderAddress: true,
  receiverAddress: true,
  category: true,
  weightGrams: true,
});

/** A pin the sender dragged, remembered with the address text it belongs to. */
interface Pin {
  address: string;
  position: Coordinates;
}

/** Where a point is: the dragged pin while the address is unchanged, else the geocoded point. */
function usePoint(address: string, pin: Pin | null) {
  const geocode = useGeocode(address);
  const pinned = pin && pin.address === address.trim() ? pin.position : null;
  return { position: pinned ?? geocode.data ?? null, pinned, failed: geocode.isError };
}

export function SendParcelPage() {
  const navigate = useNavigate();
  const createParcel = useCreateParcel();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    mode: 'onTouched',
    defaultValues: { senderAddress: '', receiverAddress: '', category: '' },
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

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      // Dragged pins travel with the parcel; otherwise the server places both addresses itself.
      const parcel = await createParcel.mutateAsync({
        ...values,
        ...(sender.pinned ? { senderCoordinates: sender.pinned } : {}),
        ...(receiver.pinned ? { receiverCoordinates: receiver.pinned } : {}),
      });
      notify.success(messages.parcelSent);
      navigate(paths.tracking(parcel.id));
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });

  const markers: MapMarker[] = [];
  if (sender.position) {
    markers.push({
      key: 'pickup',
      kind: 'pickup',
      title: 'Felvételi pont',
      position: sender.position,
      draggable: true,
      onDragEnd: (position) => setSenderPin({ address: senderAddress.trim(), position }),
    });
  }
  if (receiver.position) {
    markers.push({
      key: 'destination',
      kind: 'destination',
      title: 'Kiszállítási pont',
      position: receiver.position,
      draggable: true,
      onDragEnd: (position) => setReceiverPin({ address: receiverAddress.trim(), position }),
    });
  }
  const notPlaced = 'Ezt a címet még nem találjuk a térképen.';

  return (
    <section className="page">
      <h1>Csomagfeladás</h1>
      <div className="send-layout">
        <form className="form card" onSubmit={onSubmit} noValidate>
          <FormField
            label="Feladási cím"
            autoComplete="off"
            placeholder="pl. 1052 Budapest, Váci utca 12"
            error={errors.senderAddress?.message ?? (sender.failed ? notPlaced : undefined)}
            {...form.register('senderAddress')}
          />
          <FormField
            label="Kiszállítási cím"
            autoComplete="off"
            placeholder="pl. 6720 Szeged, Kárász utca 5"
            error={errors.receiverAddress?.message ?? (receiver.failed ? notPlaced : undefined)}
            {...form.register('receiverAddress')}
          />
          <ParcelDetailFields register={form.register} errors={errors} />
          <FormError message={createParcel.isError ? errorMessage(createParcel.error) : null} />
          <SubmitButton busy={isSubmitting}>Feladás</SubmitButton>
        </form>
        <div className="send-map">
          {markers.length > 0 ? (
            <>
              <p className="muted">Húzd a tűket pontosan az ajtóhoz, ha kell.</p>
              <LazyMap
                label="A feladási és a kiszállítási pont"
                center={markers[0]?.position ?? { lat: 47.4979, lng: 19.0402 }}
                zoom={12}
                height="360px"
                follow
                markers={markers}
              />
            </>
          ) : (
            <p className="muted card">A címek begépelése után itt látod őket a térképen.</p>
          )}
        </div>
      </div>
    </section>
  );
}
