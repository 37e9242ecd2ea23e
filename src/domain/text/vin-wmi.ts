/** World manufacturer identifiers (ISO 3780: a VIN's first three characters) of the makers whose
 * vehicles are common outside North America, from the makers' own VIN decoding guides. Outside
 * North America a VIN has no check digit, so a known maker is the only evidence its first
 * characters were read right. Not a complete register: an unknown WMI is not an error. */
const WMIS = `
WBA WBS WBY WMW WDB WDC WDD WDF W1K W1N W1V WVW WV1 WV2 WV3 WAU WUA WP0 WP1 W0L WF0 WMA WME WKK
VF1 VF3 VF6 VF7 VR1 VR3 VR7 VNK VSS VS6 VSK VWV VS5
ZFA ZFF ZAR ZLA ZHW ZAM ZCF ZDM
SAL SAJ SCC SCF SCB SCA SHH SB1 SJN SAR
TMB TMA TRU YV1 YV2 YV3 YS2 YS3 XLR XTA UU1 NM0 NMT
JHM JHL JH2 JN1 JN8 JT2 JTD JTE JTH JTN JTM JM1 JMZ JF1 JF2 JS1 JS2 JA3 JA4 JMB JYA JKA
KMH KNA KNB KNC KND KNM KPT LSV LFV LVS LRW LGX
6FP 6G1 6T1 9BW 9BD 9BG AAV AHT MA1 MAT MA3 MAL
`.trim().split(/\s+/);

const KNOWN = new Set(WMIS);

export function isKnownWmi(vin: string): boolean {
  return KNOWN.has(vin.slice(0, 3));
}
