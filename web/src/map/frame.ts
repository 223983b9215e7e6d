import type { Coordinates } from '@csomag/domain/parcel';
import type { LatLngTuple, Map as LeafletMap } from 'leaflet';

/**
 * What a map shows of its points, applied when the frame is first given and again when it changes —
 * or, when it has a `key`, only when the key changes (a courier's every move or a pin the person
 * drags must not move the map under their finger).
 * - `fit`: all of them, with room around them (both ends of a parcel, its courier); one point is
 *   centred at the map's zoom, or at `zoomForOne`.
 * - `focus`: one point, close up (a pin to drag to the door).
 * - `reveal`: all of them, moving the map only when one is out of view, and never zooming in (a
 *   parcel chosen on a map the runner has placed as they like).
 */
export type MapFrame = (
  | { fit: Coordinates[]; zoomForOne?: number }
  | { focus: Coordinates }
  | { reveal: Coordinates[] }
) & { key?: string };

const FOCUS_ZOOM = 17;
/**
 * A frame jumps, never animates: Leaflet drops a view asked for while a zoom animation runs (and
 * one asked for in the frame before an animation starts is undone by it), so a pin placed just
 * after another was framed with an animation would be left outside the map.
 */
const JUMP = { animate: false } as const;
/** Room around framed points: a pin stands ~42 px above its point. */
const PADDING_PX = 40;
const MAX_FIT_ZOOM = 16;

export const frameKey = (frame: MapFrame) => frame.key ?? JSON.stringify(frame);

const tuple = (point: Coordinates): LatLngTuple => [point.lat, point.lng];

/** The distinct points: two ends at one spot are one point, not a box of no size. */
function distinct(points: Coordinates[]): Coordinates[] {
  const seen = new Set<string>();
  return points.filter((point) => {
    const id = `${point.lat.toFixed(6)},${point.lng.toFixed(6)}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function inView(map: LeafletMap, point: Coordinates): boolean {
  const { x, y } = map.latLngToContainerPoint(tuple(point));
  const size = map.getSize();
  return x >= PADDING_PX && y >= PADDING_PX && x <= size.x - PADDING_PX && y <= size.y - PADDING_PX;
}

export function applyFrame(map: LeafletMap, frame: MapFrame): void {
  if ('focus' in frame) {
    map.setView(tuple(frame.focus), FOCUS_ZOOM, JUMP);
    return;
  }
  const points = distinct('fit' in frame ? frame.fit : frame.reveal);
  const [only] = points;
  if (!only) return;
  if ('reveal' in frame) {
    if (points.every((point) => inView(map, point))) return;
    // The chosen pin's popup is open above it: room for it too, or the fitted map would cut it off.
    const popup = map.getPane('popupPane')?.querySelector<HTMLElement>('.leaflet-popup');
    const room = PADDING_PX + Math.min(popup?.offsetHeight ?? 0, map.getSize().y / 2);
    map.fitBounds(points.map(tuple), {
      paddingTopLeft: [PADDING_PX, room],
      paddingBottomRight: [PADDING_PX, PADDING_PX],
      maxZoom: map.getZoom(),
      ...JUMP,
    });
    return;
  }
  if (points.length === 1) {
    map.setView(tuple(only), frame.zoomForOne ?? map.getZoom(), JUMP);
    return;
  }
  map.fitBounds(points.map(tuple), { padding: [PADDING_PX, PADDING_PX], maxZoom: MAX_FIT_ZOOM, ...JUMP });
}
