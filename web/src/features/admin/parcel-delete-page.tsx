import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { FormField } from '../../components/form-field.tsx';
import { parcelQuery, useDeleteParcel } from './api.ts';
import { ConfirmDelete } from './confirm-delete.tsx';

export function AdminParcelDeletePage() {
  const parcelId = useParams().packageId ?? '';
  const parcel = useQuery(parcelQuery(parcelId));
  const [reason, setReason] = useState('');
  // A parcel a runner carries is taken from them: the question names them, and a reason is needed.
  const carrier = parcel.data?.status === 'in_transit' ? parcel.data.runner : null;
  const remove = useDeleteParcel(parcelId, carrier ? reason : undefined);
  return (
    <ConfirmDelete
      title="Csomag törlése"
      question={
        carrier ? messages.confirmCarriedParcelDelete(parcelId, carrier) : messages.confirmParcelDelete(parcelId)
      }
      remove={remove}
      deletedMessage={messages.parcelDeleted}
      backTo={paths.adminParcels}
      disabled={parcel.isPending || (carrier !== null && reason.trim().length < 3)}
      fields={carrier && <FormField label="Indok" value={reason} onChange={(event) => setReason(event.target.value)} />}
    />
  );
}
