import {
  describeTiming,
  normalizeScheduleDef,
  parseDuration,
  parseSchedulesFile,
  ScheduleError,
} from '../../../src/app/schedules/scheduleDef';

describe('schedule definitions', () => {
  it('durations', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1500')).toBe(1500);
    expect(() => parseDuration('soon')).toThrow(/not a duration/);
    expect(() => parseDuration('10ms')).toThrow(/under one second/);
  });

  it('normalizes a definition: relative folders against the base, URLs as URLs', () => {
    expect(
      normalizeScheduleDef(
        { name: 'nightly', cron: '0 2 * * *', tz: 'Europe/London', source: 'drop/afp' },
        '/srv',
        'cli',
      ),
    ).toEqual({
      name: 'nightly',
      cron: '0 2 * * *',
      tz: 'Europe/London',
      source: '/srv/drop/afp',
    });
    expect(
      normalizeScheduleDef({ name: 'ap', every: '15m', source: 'https://feeds.example/ap.xml' }, '/srv', 'cli'),
    ).toEqual({
      name: 'ap',
      every: 900_000,
      source: 'https://feeds.example/ap.xml',
    });
  });

  it.each([
    [{ name: 'x', source: '/in' }, /exactly one of cron or every/],
    [{ name: 'x', cron: '* * * * *', every: '1m', source: '/in' }, /exactly one of cron or every/],
    [{ name: 'bad name', cron: '* * * * *', source: '/in' }, /name: letters, digits/],
    [{ name: 'x', cron: '* * * * *', tz: 'Mars/Olympus', source: '/in' }, /unknown time zone "Mars\/Olympus"/],
    [{ name: 'x', every: '1m', tz: 'Europe/London', source: '/in' }, /time zone only applies to cron/],
    [{ name: 'x', cron: '* * * * *', source: 'ftp://agency.example/in' }, /neither a folder nor an http\(s\) URL/],
    [{ name: 'x', cron: '* * * * *', source: '/in', colour: 'red' }, /colour|Unrecognized/],
  ])('refuses %j clearly', (raw, message) => {
    expect(() => normalizeScheduleDef(raw, '/srv', 'schedules.json')).toThrow(ScheduleError);
    expect(() => normalizeScheduleDef(raw, '/srv', 'schedules.json')).toThrow(message);
  });

  it('a schedules file: an array or {schedules}, sources relative to the file, no name twice', () => {
    const defs = parseSchedulesFile(
      JSON.stringify({ schedules: [{ name: 'a', every: '1h', source: 'in' }] }),
      '/etc/photowire/schedules.json',
    );
    expect(defs).toEqual([{ name: 'a', every: 3_600_000, source: '/etc/photowire/in' }]);
    expect(() =>
      parseSchedulesFile('[{"name":"a","every":"1h","source":"x"},{"name":"a","every":"2h","source":"y"}]', '/s.json'),
    ).toThrow(/"a" is defined twice/);
    expect(() => parseSchedulesFile('{', '/s.json')).toThrow(/\/s.json: not valid JSON/);
    expect(() => parseSchedulesFile('{"nightly":{}}', '/s.json')).toThrow(/expected an array of schedules/);
  });

  it('describes timing for listings', () => {
    expect(describeTiming({ cron: '0 2 * * *', tz: 'Europe/London' })).toBe('cron 0 2 * * * (Europe/London)');
    expect(describeTiming({ every: 900_000 })).toBe('every 15m');
    expect(describeTiming({ every: 1500 })).toBe('every 1500ms');
  });
});
