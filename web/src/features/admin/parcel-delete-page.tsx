import { messages } from '@csomag/domain/messages';
import type { ParcelDetail } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { QueryState } from '../../components/query-state.tsx';
import { useParams } from '../../lib/router.tsx';
import { useDeleteParcel, useParcelDetail } from './api.ts';
import { ConfirmDelete, DeletePage } from './confirm-delete.tsx';

function ConfirmParcelDelete({ parcel }: { parcel: ParcelDetail }) {
  const remove = useDeleteParcel(parcel.id);
  // A parcel a runner carries is taken from them: the question names them, and a reason is needed.
  const carrier = parcel.status === 'in_transit' ? parcel.runner : null;
  return (
    <ConfirmDelete
      question={
        carrier ? messages.confirmCarriedParcelDelete(parcel.id, carrier) : messages.confirmParcelDelete(parcel.id)
      }
      askReason={carrier !== null}
      onDelete={(reason) => remove.mutateAsync(reason)}
      deletedMessage={messages.parcelDeleted}
      backTo={paths.adminParcels}
    />
  );
}

export function AdminParcelDeletePage() {
  const parcelId = useParams().packageId ?? '';
  const parcel = useParcelDetail(parcelId);
  return (
    <DeletePage title={messages.adminDeleteParcelTitle}>
      <QueryState query={parcel}>{(data) => <ConfirmParcelDelete parcel={data} />}</QueryState>
    </DeletePage>
  );
}
