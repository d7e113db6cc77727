import fc from 'fast-check';
import { decodeHtmlEntities } from './html';

describe('HTML entities', () => {
  it('decodes named, decimal and hex references once', () => {
    expect(decodeHtmlEntities('&quot;Best Cat Mom&quot; &amp; Mug &#39;23 &#x2014; caf&eacute; &copy; &nbsp;')).toBe(
      '"Best Cat Mom" & Mug \'23 — café © \u00a0',
    );
    expect(decodeHtmlEntities('&amp;quot;')).toBe('&quot;');
    expect(decodeHtmlEntities('&Agrave;&yuml;&divide;&euro;&hellip;')).toBe('Àÿ÷€…');
  });

  it('leaves unknown names and broken references, and replaces impossible code points', () => {
    expect(decodeHtmlEntities('&nosuch; & &amp &#;')).toBe('&nosuch; & &amp &#;');
    expect(decodeHtmlEntities('&#0;&#xD800;&#x110000;')).toBe('\uFFFD\uFFFD\uFFFD');
  });

  it('never changes text without ampersands', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('&')),
        (s) => expect(decodeHtmlEntities(s)).toBe(s),
      ),
    );
  });
});
