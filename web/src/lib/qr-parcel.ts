const KEY = 'csomagkuldo.qrParcel';

/** The parcel chosen for QR handover survives a reload of /FutarQr (SPEC keeps it in session). */
export const rememberQrParcel = (parcelId: string) => sessionStorage.setItem(KEY, parcelId);
export const rememberedQrParcel = () => sessionStorage.getItem(KEY);
