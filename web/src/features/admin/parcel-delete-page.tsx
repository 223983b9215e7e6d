import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useParams } from 'react-router';
import { useDeleteParcel } from './api.ts';
import { ConfirmDelete } from './confirm-delete.tsx';

export function AdminParcelDeletePage() {
  const parcelId = useParams().packageId ?? '';
  return (
    <ConfirmDelete
      title="Csomag törlése"
      question={messages.confirmParcelDelete(parcelId)}
      remove={useDeleteParcel(parcelId)}
      deletedMessage={messages.parcelDeleted}
      backTo={paths.adminParcels}
    />
  );
}
