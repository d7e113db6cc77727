/**
 * A small, strict XML reader for the ECB's rate files: elements, attributes (either quote),
 * namespaces, comments, processing instructions, CDATA and the predefined and numeric
 * entities. It refuses DOCTYPEs (no entity expansion, no external references), mismatched tags
 * and anything past its depth or element limits. Text content is kept only as a flag-free
 * string per element; the ECB files carry their data in attributes.
 */
export interface XmlElement {
  /** The local name (`Cube`, `Envelope`). */
  name: string;
  /** The namespace URI the element's prefix (or the default namespace) resolves to; '' for none. */
  namespace: string;
  /** Attributes by local name, excluding namespace declarations. */
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

export interface XmlLimits {
  maxDepth: number;
  maxElements: number;
}

const DEFAULT_LIMITS: XmlLimits = { maxDepth: 32, maxElements: 1_000_000 };
const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

interface Open {
  element: XmlElement;
  qname: string;
  scope: Map<string, string>;
}

export function parseXml(source: string, limits: Partial<XmlLimits> = {}): XmlElement {
  const { maxDepth, maxElements } = { ...DEFAULT_LIMITS, ...limits };
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const stack: Open[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let i = 0;

  const fail = (message: string): never => {
    throw new XmlSyntaxError(message, i);
  };
  const skipUntil = (end: string) => {
    const at = text.indexOf(end, i);
    if (at < 0) fail(`unterminated construct, expected "${end}"`);
    const inner = text.slice(i, at);
    i = at + end.length;
    return inner;
  };
  const readName = (): string => {
    NAME.lastIndex = i;
    const match = NAME.exec(text);
    if (!match) return fail('expected a name');
    i += match[0].length;
    return match[0];
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i += 1;
  };
  const addText = (value: string) => {
    const top = stack.at(-1);
    if (top) top.element.text += value;
    else if (value.trim() !== '') fail('text outside the root element');
  };

  while (i < text.length) {
    if (text[i] !== '<') {
      const next = text.indexOf('<', i);
      const end = next < 0 ? text.length : next;
      addText(decodeEntities(text.slice(i, end), i));
      i = end;
      continue;
    }
    if (text.startsWith('<?', i)) {
      i += 2;
      skipUntil('?>');
    } else if (text.startsWith('<!--', i)) {
      i += 4;
      skipUntil('-->');
    } else if (text.startsWith('<![CDATA[', i)) {
      i += 9;
      addText(skipUntil(']]>'));
    } else if (text.startsWith('<!', i)) {
      fail('DOCTYPE and other declarations are not accepted');
    } else if (text.startsWith('</', i)) {
      i += 2;
      const qname = readName();
      skipSpace();
      if (text[i] !== '>') fail('expected ">"');
      i += 1;
      const open = stack.pop();
      if (!open || open.qname !== qname) fail(`unexpected </${qname}>`);
    } else {
      i += 1;
      const qname = readName();
      const raw: Array<[string, string]> = [];
      for (;;) {
        const before = i;
        skipSpace();
        if (text.startsWith('/>', i) || text[i] === '>') break;
        if (i === before) fail('expected whitespace between attributes');
        const attribute = readName();
        skipSpace();
        if (text[i] !== '=') fail('expected "="');
        i += 1;
        skipSpace();
        const quote = text[i];
        if (quote !== '"' && quote !== "'") fail('expected a quoted attribute value');
        i += 1;
        const start = i;
        const value = skipUntil(quote);
        if (value.includes('<')) throw new XmlSyntaxError('"<" in an attribute value', start);
        if (raw.some(([name]) => name === attribute)) fail(`duplicate attribute ${attribute}`);
        raw.push([attribute, decodeEntities(value, start)]);
      }
      const selfClosing = text.startsWith('/>', i);
      i += selfClosing ? 2 : 1;
      count += 1;
      if (count > maxElements) fail(`more than ${maxElements} elements`);
      const parentScope =
        stack.at(-1)?.scope ?? new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
      const scope = new Map(parentScope);
      for (const [name, value] of raw) {
        if (name === 'xmlns') scope.set('', value);
        else if (name.startsWith('xmlns:')) scope.set(name.slice(6), value);
      }
      const colon = qname.indexOf(':');
      const prefix = colon < 0 ? '' : qname.slice(0, colon);
      const namespace = scope.get(prefix);
      if (namespace === undefined && prefix !== '') fail(`undeclared namespace prefix ${prefix}`);
      const attributes: Record<string, string> = {};
      for (const [name, value] of raw)
        if (name !== 'xmlns' && !name.startsWith('xmlns:')) attributes[name.slice(name.indexOf(':') + 1)] = value;
      const element: XmlElement = {
        name: qname.slice(colon + 1),
        namespace: namespace ?? '',
        attributes,
        children: [],
        text: '',
      };
      const parent = stack.at(-1);
      if (parent) parent.element.children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) {
        if (stack.length >= maxDepth) fail(`nested deeper than ${maxDepth}`);
        stack.push({ element, qname, scope });
      }
    }
  }
  if (stack.length > 0) fail(`<${stack.at(-1)?.qname}> is not closed`);
  if (!root) return fail('no root element');
  return root;
}

function decodeEntities(value: string, offset: number): string {
  return value.replace(/&([^;&\s]{1,10});|&/g, (whole, name: string | undefined) => {
    if (name === undefined) throw new XmlSyntaxError('a bare "&"', offset);
    if (name in PREDEFINED) return PREDEFINED[name];
    const code = name.startsWith('#x')
      ? Number.parseInt(name.slice(2), 16)
      : name.startsWith('#')
        ? Number.parseInt(name.slice(1), 10)
        : NaN;
    if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff)
      throw new XmlSyntaxError(`unknown entity ${whole}`, offset);
    return String.fromCodePoint(code);
  });
}
