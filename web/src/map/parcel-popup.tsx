import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import type { ReactNode } from 'react';
import { ParcelId } from '../components/parcel-id.tsx';
import type { MapMarker } from './map-view.tsx';

/** One line of a marker's popup: a label and what it says (React content, never HTML). */
export type PopupRow = [label: string, value: ReactNode];

/** A marker's popup: its rows, then whatever the map adds (a link, a button). */
export function MarkerPopup({ rows, children }: { rows: PopupRow[]; children?: ReactNode }) {
  return (
    <div className="popup">
      {rows.map(([label, value]) => (
        <p key={label}>
          <strong>{label}</strong> {value}
        </p>
      ))}
      {children}
    </div>
  );
}

/** What both parcel maps know of a parcel's destination (SPEC §2.7, §2.8). */
interface Destination {
  id: string;
  receiverAddress: string;
  senderUser: string;
  position: Coordinates;
}

/**
 * The 'Hova' marker of a parcel: its id, destination and sender, then what the map adds (the runner
 * map: weight and 'Felvétel'; the admin map: the runner and a details link).
 */
export function destinationMarker(
  parcel: Destination,
  extra: { rows?: PopupRow[]; children?: ReactNode } = {},
): MapMarker {
  const rows: PopupRow[] = [
    [messages.popupId, <ParcelId key="id" id={parcel.id} />],
    [messages.popupAddress, parcel.receiverAddress],
    [messages.popupSender, parcel.senderUser],
    ...(extra.rows ?? []),
  ];
  return {
    key: `destination-${parcel.id}`,
    kind: 'destination',
    title: messages.mapParcelDestination,
    position: parcel.position,
    popup: <MarkerPopup rows={rows}>{extra.children}</MarkerPopup>,
  };
}
