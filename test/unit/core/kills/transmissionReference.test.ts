import { isReusedReference } from '../../../../src/core/kills/transmissionReference';

describe('isReusedReference: which agency ids a kill reaches only near its time', () => {
  it.each(['NYPS101', 'LON805', 'CPT101', 'DCEV102'])('%s is a transmission reference agencies reuse', (id) => {
    expect(isReusedReference(id)).toBe(true);
  });
  it.each([
    'urn:newsml:ap.org:20240310:NYPS101',
    'tag:reuters.com,2024:newsml_LYNXMPEK2A0RT',
    'epa11213344',
    'photos-f15317c4f993-0001',
    '123456',
    'NYPS',
  ])('%s is unique', (id) => {
    expect(isReusedReference(id)).toBe(false);
  });
});
