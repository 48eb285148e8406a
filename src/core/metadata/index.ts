export {
  metadataContainer,
  readImageMetadata,
  readImageMetadataBySource,
  readMetadataBlocks,
  type ImageMetadata,
  type ImageMetadataBySource,
  type ReadOptions,
} from './readImageMetadata';
export { parseIim, type IimBlock, type IimDataset } from './iim';
export { readXmpFields } from './xmp';
export { mergeIimXmp } from './mergeIimXmp';
export { buildIimBlock, type BuildIimOptions } from './buildIimBlock';
export { buildXmpPacket } from './buildXmpPacket';
export { insertIptcIntoJpeg, insertXmpIntoJpeg } from './jpegWriter';
export {
  loadDefaultTexts,
  defaultDefaultTexts,
  matchDefaultText,
  DefaultTextRulesError,
  type DefaultTexts,
} from './defaultTexts';
