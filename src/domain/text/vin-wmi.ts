/** World manufacturer identifiers (ISO 3780: a VIN's first three characters) of common makers,
 * from the makers' own VIN decoding guides. A VIN's first character (its region) decides
 * whether a check digit applies, so it is never changed on the check digit's word alone; and
 * outside North America there is no check digit. A known maker is the evidence the reader
 * uses there. Not a complete register: an unknown WMI is not an error. */
const WMIS = `
1G1 1G4 1G6 1GC 1GT 1GN 1FA 1FM 1FT 1FD 1HG 1HF 1J4 1C3 1C4 1C6 1N4 1N6 1VW 1GK 1LN 1ME 1YV
2C3 2C4 2FA 2FM 2FT 2G1 2GT 2HG 2HK 2HM 2T1 2T3 2HN 3FA 3GN 3GC 3N1 3VW 3HG 3KP 4T1 4T3 4S3 4S4
4JG 4US 5YJ 5NP 5NM 5UX 5FN 5J6 5TD 5TF 5XY 5XX 5N1 5GA 5LM
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
