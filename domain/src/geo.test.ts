import { describe, expect, it } from 'vitest';
import { DELIVERY_RADIUS_M } from './constants.ts';
import { distanceMetres, isWithinDeliveryRadius } from './geo.ts';

describe('distanceMetres', () => {
  it('is zero between a point and itself', () => {
    expect(distanceMetres({ lat: 47.4979, lng: 19.0402 }, { lat: 47.4979, lng: 19.0402 })).toBe(0);
  });

  it('measures Budapest to Szeged as about 161 km', () => {
    const km = distanceMetres({ lat: 47.4979, lng: 19.0402 }, { lat: 46.253, lng: 20.1414 }) / 1000;
    expect(km).toBeGreaterThan(160);
    expect(km).toBeLessThan(163);
  });

  it('measures one degree of latitude as about 111.2 km', () => {
    expect(distanceMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195, -1);
  });

  it('measures 10 m along a meridian in Budapest', () => {
    const tenMetresOfLatitude = 10 / 111_195;
    expect(distanceMetres({ lat: 47.5, lng: 19 }, { lat: 47.5 + tenMetresOfLatitude, lng: 19 })).toBeCloseTo(10, 2);
  });

  it('is symmetric and crosses the antimeridian the short way', () => {
    const a = { lat: 0, lng: 179.9 };
    const b = { lat: 0, lng: -179.9 };
    expect(distanceMetres(a, b)).toBeCloseTo(distanceMetres(b, a), 6);
    expect(distanceMetres(a, b)).toBeLessThan(23_000);
  });
});

describe('the 15 m delivery rule', () => {
  it('is 15 metres', () => {
    expect(DELIVERY_RADIUS_M).toBe(15);
  });

  it('allows delivery when distance − accuracy is just under 15', () => {
    expect(isWithinDeliveryRadius(14.99, 0)).toBe(true);
    expect(isWithinDeliveryRadius(40, 25.01)).toBe(true);
  });

  it('refuses at exactly 15 and above', () => {
    expect(isWithinDeliveryRadius(15, 0)).toBe(false);
    expect(isWithinDeliveryRadius(40, 25)).toBe(false);
    expect(isWithinDeliveryRadius(2000, 10)).toBe(false);
  });
});
