export * from './client';
export { canonicalRate, parseEcbCsv, parseEcbXml, toFxRateRows, type EcbRateDay } from './parse';
export { readZipEntry, ZipFormatError, type ZipEntry } from './zip';
