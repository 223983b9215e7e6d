import { messages } from '@csomag/domain/messages';
import { describe, expect, it } from 'vitest';
import { OfflineGeocoder } from './offline.ts';

const geocoder = new OfflineGeocoder();

describe('offline gazetteer', () => {
  it('places a town by the settlement named after the postcode', async () => {
    expect(await geocoder.geocode('6720 Szeged, Kárász utca 5')).toEqual({
      lat: 46.253,
      lng: 20.14824,
      label: 'Szeged',
      source: 'offline',
      precision: 'settlement',
    });
  });

  it('places a Budapest postcode at its district centre (1052 → district V)', async () => {
    expect(await geocoder.geocode('1052 Budapest, Váci utca 12')).toEqual({
      lat: 47.4996,
      lng: 19.0512,
      label: messages.budapestDistrict('V'),
      source: 'offline',
      precision: 'settlement',
    });
  });

  it('matches without a postcode and regardless of accents and case', async () => {
    const debrecen = { lat: 47.53167, lng: 21.62444, label: 'Debrecen', source: 'offline', precision: 'settlement' };
    expect(await geocoder.geocode('Debrecen, Piac u. 20')).toEqual(debrecen);
    expect(await geocoder.geocode('piac u 20, DEBRECEN')).toEqual(debrecen);
    expect((await geocoder.geocode('Pecs, Kiraly utca 1'))?.label).toBe('Pécs');
  });

  it('does not take a street named after a town for the town', async () => {
    expect((await geocoder.geocode('9021 Győr, Tata utca 3'))?.label).toBe('Győr');
    expect((await geocoder.geocode('Szeged, Vác utca 1'))?.label).toBe('Szeged');
  });

  it('knows all 23 districts, by postcode or by "XXIII. kerület"', async () => {
    expect((await geocoder.geocode('1239 Budapest, Grassalkovich út 162'))?.label).toBe(
      messages.budapestDistrict('XXIII'),
    );
    expect((await geocoder.geocode('Budapest VII. kerület, Dob utca 1'))?.label).toBe(messages.budapestDistrict('VII'));
    expect((await geocoder.geocode('1146 Hungária körút 5'))?.label).toBe(messages.budapestDistrict('XIV'));
  });

  it('falls back to the city centre for Budapest without a district', async () => {
    expect(await geocoder.geocode('Budapest, Andrássy út 1')).toMatchObject({ label: 'Budapest', lat: 47.49835 });
  });

  it('keeps a 1xxx postcode of a town outside Budapest to that town', async () => {
    expect((await geocoder.geocode('1234 Szeged, Fő utca 1'))?.label).toBe('Szeged');
  });

  it('answers null for a place it does not know', async () => {
    expect(await geocoder.geocode('Nincsilyen falu, Sehol utca 1')).toBeNull();
    expect(await geocoder.geocode('...')).toBeNull();
  });
});
