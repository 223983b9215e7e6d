import { describe, expect, it } from 'vitest';
import { decodePath, isLinkActive, matchPath } from './router.tsx';

describe('matchPath', () => {
  it('matches a path with its parameters, regardless of case and of a trailing slash', () => {
    expect(matchPath('/CsomagKovetes/:packageId', '/CsomagKovetes/AB12CD34EF')).toEqual({ packageId: 'AB12CD34EF' });
    expect(matchPath('/CsomagKovetes/:packageId', '/csomagkovetes/AB12CD34EF/')).toEqual({ packageId: 'AB12CD34EF' });
    expect(matchPath('/Bejelentkezes', '/Bejelentkezes')).toEqual({});
    expect(matchPath('/', '/')).toEqual({});
  });

  it('keeps a parameter’s own case and refuses another length or another word', () => {
    expect(matchPath('/FutarProfil/:username', '/futarprofil/Kiss.Anna')).toEqual({ username: 'Kiss.Anna' });
    expect(matchPath('/CsomagKovetes/:packageId', '/CsomagKovetes')).toBeNull();
    expect(matchPath('/CsomagKovetes/:packageId', '/CsomagKovetes/A/B')).toBeNull();
    expect(matchPath('/CsomagKovetes', '/CsomagFeladas')).toBeNull();
    expect(matchPath('/', '/Bejelentkezes')).toBeNull();
  });

  it('lets * take any path', () => {
    expect(matchPath('*', '/nincs/ilyen/oldal')).toEqual({});
  });
});

describe('decodePath', () => {
  it('decodes each segment, keeps an encoded slash inside one, and leaves a malformed one as it is', () => {
    expect(decodePath('/FelhasznaloProfil/%C3%A1rv%C3%ADzt%C5%B1r%C5%91')).toBe('/FelhasznaloProfil/árvíztűrő');
    expect(decodePath('/FutarProfil/a%2Fb')).toBe('/FutarProfil/a%2Fb');
    expect(decodePath('/FutarProfil/%E0%A4%A')).toBe('/FutarProfil/%E0%A4%A');
  });

  it('gives the route its parameter decoded', () => {
    expect(matchPath('/FelhasznaloProfil/:username', decodePath('/FelhasznaloProfil/kov%C3%A1cs'))).toEqual({
      username: 'kovács',
    });
  });
});

describe('isLinkActive', () => {
  it('is active on its own page and below it, unless it must end there', () => {
    expect(isLinkActive('/SaCsomagListazas', '/SaCsomagListazas', false)).toBe(true);
    expect(isLinkActive('/FutarProfil', '/FutarProfil/anna', false)).toBe(true);
    expect(isLinkActive('/FutarProfil', '/FutarProfil/anna', true)).toBe(false);
    expect(isLinkActive('/SaCsomagListazas', '/sacsomaglistazas/', true)).toBe(true);
    expect(isLinkActive('/SaCsomagListazas', '/SaCsomagLetrehozas', false)).toBe(false);
  });

  it('is active for the home page only on the home page', () => {
    expect(isLinkActive('/', '/', false)).toBe(true);
    expect(isLinkActive('/', '/Bejelentkezes', false)).toBe(false);
    expect(isLinkActive('/', '/Bejelentkezes', true)).toBe(false);
  });
});
