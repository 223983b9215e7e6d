import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import { useState } from 'react';
import type { MapFrame } from '../../map/frame.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { ENDS, type End, type EndPin } from './end-pin.ts';

/** Each pin's SPEC label: its marker's title and alt text, and its name on the buttons. */
export const pinTitles: Record<End, string> = {
  pickup: messages.mapPickupPoint,
  destination: messages.mapDestinationPoint,
};

const tapLabels: Record<End, string> = {
  pickup: messages.tapTargetPickup,
  destination: messages.tapTargetDestination,
};

/** The radio that says which pin a tap places: focused when the sender is sent to the map. */
export const tapTargetId = (end: End) => `tap-target-${end}`;

/** Nothing placed yet: the whole country, so a tap can start anywhere. */
const COUNTRY_ZOOM = 7;
const PLACED_ZOOM = 12;
/** One pin alone: near enough to drag it to a door. */
const ONE_PIN_ZOOM = 16;

/**
 * The send form's map, always there (issue 25): both pins, each dragged or placed by a tap — the
 * two-choice control says which pin a tap places. It frames the pins again when the geocoder
 * places an address (`placedKey` changes), never when the sender moves a pin.
 */
export function SendMap({
  pins,
  placedKey,
  target,
  onTarget,
  onPlace,
}: {
  pins: Record<End, EndPin>;
  placedKey: string;
  target: End;
  onTarget: (end: End) => void;
  onPlace: (end: End, position: Coordinates) => void;
}) {
  const [focus, setFocus] = useState<End | null>(null);
  const markers: MapMarker[] = [];
  for (const end of ENDS) {
    const position = pins[end].position;
    if (!position) continue;
    markers.push({
      key: end,
      kind: end,
      title: pinTitles[end],
      position,
      draggable: true,
      onDragEnd: (dropped) => onPlace(end, dropped),
    });
  }
  const focused = focus ? pins[focus].position : null;
  const frame: MapFrame = focused
    ? { focus: focused, key: `focus-${focus}` }
    : { fit: markers.map((marker) => marker.position), zoomForOne: ONE_PIN_ZOOM, key: placedKey };
  const [first] = markers;

  return (
    <div className="send-map card">
      <fieldset className="tap-target">
        <legend>{messages.tapTargetLegend}</legend>
        <div className="segmented">
          {ENDS.map((end) => (
            <label key={end} className="segment">
              <input
                id={tapTargetId(end)}
                type="radio"
                name="tap-target"
                value={end}
                checked={target === end}
                onChange={() => onTarget(end)}
              />{' '}
              {tapLabels[end]}
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted">{messages.sendMapHelp}</p>
      <LazyMap
        label={messages.mapBothPointsLabel}
        center={first?.position ?? DEFAULT_MAP_CENTRE}
        zoom={first ? PLACED_ZOOM : COUNTRY_ZOOM}
        height="360px"
        frame={frame}
        markers={markers}
        onMapClick={(position) => onPlace(target, position)}
      />
      {markers.length > 0 && (
        <ul className="pin-checks">
          {ENDS.filter((end) => pins[end].position).map((end) => (
            <li key={end}>
              <button type="button" className="button" onClick={() => setFocus(focus === end ? null : end)}>
                {focus === end ? messages.showBothPins : messages.showPin(pinTitles[end])}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
