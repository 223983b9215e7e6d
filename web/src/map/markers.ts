import L from 'leaflet';

/**
 * `relay`: a parcel a runner offers to hand on ('Továbbadás', issue 14); `drop_point`: a partner
 * place parcels are left at and collected from ('Átvételi pont', issue 28).
 */
export type MarkerKind = 'pickup' | 'destination' | 'runner' | 'me' | 'relay' | 'drop_point';

const colors: Record<MarkerKind, string> = {
  pickup: '#1d4ed8',
  destination: '#c2410c',
  runner: '#15803d',
  me: '#7c3aed',
  relay: '#0e7490',
  drop_point: '#a16207',
};

// Inline SVG pins: Leaflet's default PNG icon paths break under Vite, and colours tell kinds apart.
// A relay offer's pin carries a two-way arrow and a drop point's a box instead of the dot, so they
// are told apart without colour.
const glyphs: Partial<Record<MarkerKind, string>> = {
  relay:
    '<path d="M8 12h12l-3-3M22 18H10l3 3" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>',
  drop_point:
    '<rect x="9" y="9" width="12" height="11" rx="1" fill="#fff"/><path d="M9 13h12" stroke="#a16207" stroke-width="1.6"/>',
};
const pinSvg = (kind: MarkerKind, color: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="30" height="42" viewBox="0 0 30 42"><path d="M15 1C7.3 1 1 7.2 1 14.9 1 25.3 15 41 15 41s14-15.7 14-26.1C29 7.2 22.7 1 15 1z" fill="${color}" stroke="#fff" stroke-width="2"/>${
    glyphs[kind] ?? '<circle cx="15" cy="15" r="5.5" fill="#fff"/>'
  }</svg>`;

const icons = Object.fromEntries(
  Object.entries(colors).map(([kind, color]) => [
    kind,
    L.icon({
      iconUrl: `data:image/svg+xml,${encodeURIComponent(pinSvg(kind as MarkerKind, color))}`,
      iconSize: [30, 42],
      iconAnchor: [15, 41],
      popupAnchor: [0, -36],
    }),
  ]),
) as Record<MarkerKind, L.Icon>;

export const markerIcon = (kind: MarkerKind) => icons[kind];
