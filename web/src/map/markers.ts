import L from 'leaflet';

/** `relay`: a parcel a runner offers to hand on ('Továbbadás', issue 14). */
export type MarkerKind = 'pickup' | 'destination' | 'runner' | 'me' | 'relay';

const colors: Record<MarkerKind, string> = {
  pickup: '#1d4ed8',
  destination: '#c2410c',
  runner: '#15803d',
  me: '#7c3aed',
  relay: '#0e7490',
};

// Inline SVG pins: Leaflet's default PNG icon paths break under Vite, and colours tell kinds apart.
// A relay offer's pin carries a two-way arrow instead of the dot, so it is told apart without colour.
const pinSvg = (color: string, relay: boolean) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="30" height="42" viewBox="0 0 30 42"><path d="M15 1C7.3 1 1 7.2 1 14.9 1 25.3 15 41 15 41s14-15.7 14-26.1C29 7.2 22.7 1 15 1z" fill="${color}" stroke="#fff" stroke-width="2"/>${
    relay
      ? '<path d="M8 12h12l-3-3M22 18H10l3 3" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>'
      : '<circle cx="15" cy="15" r="5.5" fill="#fff"/>'
  }</svg>`;

const icons = Object.fromEntries(
  Object.entries(colors).map(([kind, color]) => [
    kind,
    L.icon({
      iconUrl: `data:image/svg+xml,${encodeURIComponent(pinSvg(color, kind === 'relay'))}`,
      iconSize: [30, 42],
      iconAnchor: [15, 41],
      popupAnchor: [0, -36],
    }),
  ]),
) as Record<MarkerKind, L.Icon>;

export const markerIcon = (kind: MarkerKind) => icons[kind];
