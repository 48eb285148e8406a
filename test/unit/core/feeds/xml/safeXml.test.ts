import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError } from '../../../../../src/core/errors';
import { parseXmlSafely } from '../../../../../src/core/feeds/xml/safeXml';
import { attr, childElements, firstChild, rawText, text } from '../../../../../src/core/feeds/xml/xmlTree';
import { cpuMs } from '../../../../helpers/cpuTime';

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/feeds');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

// A line of the real /etc/passwd: if any of it shows up in an error or a parse result, the entity was resolved.
const PASSWD_LINE = (() => {
  try {
    return readFileSync('/etc/passwd', 'utf8').split('\n')[0];
  } catch {
    return 'root:x:0:0:';
  }
})();

function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError, but parsing succeeded');
}

describe('parseXmlSafely on well-formed XML', () => {
  it('decodes predefined, numeric and HTML-named references in text and attributes, keeps CDATA literal', () => {
    const root = parseXmlSafely(
      '<doc a="Fish &amp; Chips &#x2014; &quot;q&quot;"><t>5 &lt; 6 &amp;&#160;caf&eacute; &#233;</t><c><![CDATA[raw &amp; <b>kept</b>]]></c></doc>',
      'feed.xml',
    );
    expect(attr(root, 'a')).toBe('Fish & Chips \u2014 "q"');
    expect(text(firstChild(root, 't'))).toBe('5 < 6 &\u00a0caf\u00e9 \u00e9');
    expect(rawText(firstChild(root, 'c')!)).toBe('raw &amp; <b>kept</b>');
  });

  it('keeps element text as strings (no number coercion) and reports 1-based lines, after a BOM and CRLF', () => {
    const root = parseXmlSafely(
      '\ufeff<?xml version="1.0"?>\r\n<doc>\r\n  <id>007</id>\r\n  <n>1e3</n>\r\n</doc>\r\n',
      'feed.xml',
    );
    const [id, n] = childElements(root);
    expect(text(id)).toBe('007');
    expect(text(n)).toBe('1e3');
    expect(root.line).toBe(2);
    expect(id.line).toBe(3);
    expect(n.line).toBe(4);
  });

  it('matches elements by local name whatever their prefix', () => {
    const root = parseXmlSafely(
      '<g2:newsItem xmlns:g2="http://iptc.org/std/nar/2006-10-01/" guid="x"><g2:itemMeta/></g2:newsItem>',
      'f.xml',
    );
    expect(root.local).toBe('newsItem');
    expect(root.name).toBe('g2:newsItem');
    expect(firstChild(root, 'itemMeta')?.name).toBe('g2:itemMeta');
  });

  it('accepts a DOCTYPE that only names an external DTD, and never reads it', () => {
    const root = parseXmlSafely(
      '<?xml version="1.0"?>\n<!DOCTYPE nitf SYSTEM "file:///etc/passwd">\n<nitf><p>ok</p></nitf>',
      'feed.xml',
    );
    expect(text(firstChild(root, 'p'))).toBe('ok');
    expect(JSON.stringify(root)).not.toContain(PASSWD_LINE);
  });

  it('accepts a subset that only names external DTD modules (AFP and Kyodo NewsML 1.2), and never fetches them', async () => {
    // A live server on loopback: a parser that fetched the module would show up in its log.
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('<!ENTITY xxe "stolen">');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const root = parseXmlSafely(
        `<?xml version="1.0"?>\n<!DOCTYPE NewsML PUBLIC "urn:newsml:iptc.org:20001006:NewsMLv1.0:1" "http://127.0.0.1:${port}/NewsML.dtd" [\n\t<!ENTITY % nitf SYSTEM "http://127.0.0.1:${port}/nitf.dtd">\n\t<!-- the NITF module -->\n\t%nitf;\n]>\n<NewsML><p>ok &amp; fine</p></NewsML>`,
        'afp.xml',
      );
      expect(text(firstChild(root, 'p'))).toBe('ok & fine');
      expect(root.line).toBe(7); // line numbers hold across the blanked DOCTYPE
      // and an entity only that module would declare is still refused
      const err = refusal(() =>
        parseXmlSafely(
          `<!DOCTYPE d [<!ENTITY % p SYSTEM "http://127.0.0.1:${port}/evil.dtd"> %p;]><d>&xxe;</d>`,
          'afp.xml',
        ),
      );
      expect(err.code).toBe('XML_ENTITY_REFUSED');
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('does not follow XInclude: the include stays an empty element', () => {
    const root = parseXmlSafely(
      '<doc xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></doc>',
      'feed.xml',
    );
    expect(rawText(root)).toBe('');
    expect(JSON.stringify(root)).not.toContain(PASSWD_LINE);
  });

  it('parses a 5 MB attribute quickly and keeps it whole', () => {
    const huge = 'x'.repeat(5 * 1024 * 1024);
    // CPU time, the fastest of two rounds: the wall clock also counts other processes' turns on a shared core.
    let best = Infinity;
    let root = parseXmlSafely('<doc/>', 'feed.xml');
    for (let round = 0; round < 2 && best >= 5000; round++) {
      best = Math.min(
        best,
        cpuMs(() => (root = parseXmlSafely(`<doc big="${huge}"><a/></doc>`, 'feed.xml'))),
      );
    }
    expect(best).toBeLessThan(5000);
    expect(attr(root, 'big')).toHaveLength(huge.length);
  });

  it('never answers an attribute lookup with an Object member', () => {
    const root = parseXmlSafely('<doc a="1"/>', 'feed.xml');
    expect(attr(root, 'toString')).toBeUndefined();
    expect(attr(root, 'constructor')).toBeUndefined();
    expect(attr(root, 'a')).toBe('1');
  });
});

describe('parseXmlSafely refuses entity declarations (malicious corpus)', () => {
  it('refuses the XXE fixture naming /etc/passwd, names the file and leaks nothing', () => {
    const err = refusal(() => parseXmlSafely(fixture('xxe.xml'), 'drop/xxe.xml'));
    expect(err.code).toBe('XML_ENTITY_REFUSED');
    expect(err.message).toContain('drop/xxe.xml');
    expect(err.message).toMatch(/line 8/); // the ENTITY declaration's line
    expect(err.message).not.toContain(PASSWD_LINE);
  });

  it('refuses the billion-laughs fixture at once', () => {
    let err!: ReturnType<typeof refusal>;
    expect(
      cpuMs(() => (err = refusal(() => parseXmlSafely(fixture('billion-laughs.xml'), 'drop/billion-laughs.xml')))),
    ).toBeLessThan(1000);
    expect(err.code).toBe('XML_ENTITY_REFUSED');
    expect(err.message).toContain('drop/billion-laughs.xml');
    expect(err.message).toMatch(/entities/);
  });

  const hostile: Array<[string, string]> = [
    ['external entity over http', '<!DOCTYPE d [<!ENTITY e SYSTEM "http://127.0.0.1:9/steal">]><d>&e;</d>'],
    ['external entity in an attribute', '<!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]><d a="&e;"/>'],
    [
      'parameter entity with a value (a module written inline)',
      `<!DOCTYPE d [<!ENTITY % p "<!ENTITY e 'x'>"> %p;]><d>&e;</d>`,
    ],
    ['reference to an undeclared parameter entity', '<!DOCTYPE d [<!ENTITY % p SYSTEM "x.dtd"> %q;]><d/>'],
    [
      'general entity after an external module',
      '<!DOCTYPE d [<!ENTITY % p SYSTEM "x.dtd"> %p; <!ENTITY e SYSTEM "file:///etc/passwd">]><d>&e;</d>',
    ],
    [
      'entity the external module would declare',
      '<!DOCTYPE d [<!ENTITY % p SYSTEM "http://127.0.0.1:9/evil.dtd"> %p;]><d>&xxe;</d>',
    ],
    [
      'too many external modules',
      `<!DOCTYPE d [${Array.from({ length: 9 }, (_, i) => `<!ENTITY % m${i} SYSTEM "m${i}.dtd"> %m${i};`).join('')}]><d/>`,
    ],
    [
      'an internal subset longer than 4,096 characters',
      `<!DOCTYPE d [<!ENTITY % p SYSTEM "x.dtd"> <!-- ${'x'.repeat(5000)} --> %p;]><d/>`,
    ],
    ['quadratic blow-up', `<!DOCTYPE d [<!ENTITY a "${'a'.repeat(50000)}">]><d>${'&a;'.repeat(5000)}</d>`],
    ['internal subset without entities', '<!DOCTYPE d [<!ELEMENT d (#PCDATA)>]><d/>'],
    ['lower-case doctype keyword', '<!doctype d [<!ENTITY e "x">]><d>&e;</d>'],
    [
      'subset after a public id containing brackets',
      '<!DOCTYPE d PUBLIC "-//X//[odd]//EN" "x.dtd" [<!ENTITY e "x">]><d>&e;</d>',
    ],
    ['ENTITY declaration outside any DOCTYPE', '<d><!ENTITY e SYSTEM "file:///etc/passwd"></d>'],
    ['DOCTYPE with a subset after the root element', '<d><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]></d>'],
    [
      'undeclared entity expected from an external DTD',
      '<!DOCTYPE d SYSTEM "http://127.0.0.1:9/evil.dtd"><d>&xxe;</d>',
    ],
    ['undeclared entity without any DOCTYPE', '<d>&passwd;</d>'],
    ['entity name that is an Object member', '<d>&constructor;</d>'],
  ];
  it.each(hostile)('refuses %s with XML_ENTITY_REFUSED', (_name, xml) => {
    const err = refusal(() => parseXmlSafely(xml, 'hostile.xml'));
    expect(err.code).toBe('XML_ENTITY_REFUSED');
    expect(err.message).toMatch(/^hostile\.xml: line \d+: /);
    expect(err.message).not.toContain(PASSWD_LINE);
  });

  it('ignores lookalike text inside comments and CDATA', () => {
    const root = parseXmlSafely('<d><!-- <!ENTITY e "x"> &e; --><![CDATA[<!DOCTYPE x [ &e; ]>]]></d>', 'f.xml');
    expect(rawText(root)).toBe('<!DOCTYPE x [ &e; ]>');
  });
});

describe('parseXmlSafely on malformed XML', () => {
  const malformed: Array<[string, string, RegExp]> = [
    ['an unclosed element', '<d>\n  <a>\n</d>', /line 3/],
    ['a bare ampersand', '<d>\nFish & Chips</d>', /line 2: .*&amp;/],
    ['a reference to character zero', '<d>&#0;</d>', /not a character XML allows/],
    ['two root elements', '<a/><b/>', /root/i],
    ['no element at all', '   ', /./],
    ['an unclosed comment', '<d><!-- never closed</d>', /comment/],
    ['two DOCTYPEs', '<!DOCTYPE a SYSTEM "a.dtd"><!DOCTYPE a SYSTEM "b.dtd"><a/>', /more than one DOCTYPE/],
    ['nesting deeper than the parser allows', `${'<a>'.repeat(500)}${'</a>'.repeat(500)}`, /nested/i],
    ['a repeated attribute', '<d a="1" a="2"/>', /line 1, column \d+: .*repeated/],
    ['an attribute named constructor', '<d constructor="x"/>', /constructor/],
  ];
  it.each(malformed)('reports %s as FEED_MALFORMED naming the file', (_name, xml, detail) => {
    const err = refusal(() => parseXmlSafely(xml, 'in/bad.xml'));
    expect(err.code).toBe('FEED_MALFORMED');
    expect(err.message).toContain('in/bad.xml');
    expect(err.message).toMatch(detail);
  });

  it('refuses element names that would pollute Object.prototype, and pollutes nothing', () => {
    const err = refusal(() => parseXmlSafely('<__proto__><polluted>yes</polluted></__proto__>', 'p.xml'));
    expect(err.code).toBe('FEED_MALFORMED');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
