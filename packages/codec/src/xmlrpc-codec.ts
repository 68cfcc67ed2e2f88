/**
 * @module XML-RPC codec: `methodCall` and `methodResponse` documents to and from JS values.
 *
 * Pure functions, shared by the sandbox ERP (server side) and the gateway's XML-RPC client. The
 * output imitates Python's `xmlrpc.client` byte for byte (Odoo's server uses it), with Odoo's
 * adjustments: `None` is refused, control characters are stripped from strings, and integers
 * beyond 32 bits travel as doubles. The parser is a small linear scanner for the subset of XML
 * that XML-RPC uses; it never recurses deeper than `MAX_DEPTH` elements and refuses DOCTYPEs (no
 * entity expansion), so hostile input fails fast with an `XmlRpcParseError`.
 */

/** A decoded `dateTime.iso8601` value, kept as sent (XML-RPC datetimes carry no time zone). */
export class XmlRpcDateTime {
  constructor(
    /** The text as sent, e.g. `20250131T08:30:00`. */
    readonly iso: string,
  ) {}

  /** `YYYY-MM-DD HH:MM:SS`, the form Odoo compares datetime fields with. */
  toOdooString(): string {
    const m = DATETIME_PATTERN.exec(this.iso);
    if (!m) return this.iso;
    return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
  }
}

export type XmlRpcValue = number | boolean | string | null | Date | XmlRpcDateTime | Uint8Array | readonly XmlRpcValue[] | { readonly [name: string]: XmlRpcValue };

export interface MethodCall {
  readonly methodName: string;
  readonly params: readonly XmlRpcValue[];
}

export type MethodResponse =
  | { readonly kind: 'params'; readonly value: XmlRpcValue }
  | { readonly kind: 'fault'; readonly faultCode: number | string; readonly faultString: string };

export interface EncodeOptions {
  /** Send `null` as `<nil/>` (Python's `allow_none`); Odoo's server never does. Default false. */
  readonly allowNone?: boolean;
}

/** Malformed XML, or XML that is not an XML-RPC document. */
export class XmlRpcParseError extends Error {
  override readonly name = 'XmlRpcParseError';
}

/** A value XML-RPC cannot carry; the messages are Python's, as Odoo reports them in faults. */
export class XmlRpcMarshalError extends Error {
  override readonly name = 'XmlRpcMarshalError';
}

/** Deepest element nesting accepted: about 60 levels of nested arrays, far beyond any domain. */
const MAX_DEPTH = 200;

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);
const DATETIME_PATTERN = /^\s*(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})/;
// XML 1.0 forbids these; Odoo strips them from every string it marshals (tab, LF, CR stay).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding these characters is the point.
const CONTROL_CHARACTERS = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

// ------------------------------------------------------------------------------------------
// Encoding
// ------------------------------------------------------------------------------------------

/** A `methodCall` document as Python's `xmlrpc.client.dumps(params, methodname)` writes it. */
export function encodeMethodCall(call: MethodCall, options: EncodeOptions = {}): string {
  const out: string[] = ["<?xml version='1.0'?>\n<methodCall>\n<methodName>", escapeText(call.methodName), '</methodName>\n'];
  writeParams(call.params, out, options);
  out.push('</methodCall>\n');
  return out.join('');
}

/** A successful `methodResponse` as Odoo's RPC controller writes it (one param). */
export function encodeMethodResponse(value: XmlRpcValue, options: EncodeOptions = {}): string {
  const out: string[] = [];
  writeParams([value], out, options);
  return wrapResponse(out.join(''));
}

/** A fault `methodResponse` as Odoo's RPC controller writes it. */
export function encodeFault(faultCode: number | string, faultString: string): string {
  const out: string[] = ['<fault>\n'];
  writeValue({ faultCode, faultString }, out, {}, 0);
  out.push('</fault>\n');
  return wrapResponse(out.join(''));
}

function wrapResponse(body: string): string {
  return `<?xml version="1.0"?>\n<methodResponse>\n${body}\n</methodResponse>\n`;
}

function writeParams(params: readonly XmlRpcValue[], out: string[], options: EncodeOptions): void {
  out.push('<params>\n');
  for (const param of params) {
    out.push('<param>\n');
    writeValue(param, out, options, 0);
    out.push('</param>\n');
  }
  out.push('</params>\n');
}

function writeValue(value: XmlRpcValue | undefined, out: string[], options: EncodeOptions, depth: number): void {
  if (depth > MAX_DEPTH) throw new XmlRpcMarshalError('cannot marshal recursive or too deeply nested values');
  if (value === null || value === undefined) {
    if (!options.allowNone) throw new XmlRpcMarshalError('cannot marshal None unless allow_none is enabled');
    out.push('<value><nil/></value>');
  } else if (typeof value === 'boolean') {
    out.push('<value><boolean>', value ? '1' : '0', '</boolean></value>\n');
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) {
      out.push('<value><int>', String(value), '</int></value>\n');
    } else {
      out.push('<value><double>', pythonFloatRepr(value), '</double></value>\n');
    }
  } else if (typeof value === 'string') {
    out.push('<value><string>', escapeText(value), '</string></value>\n');
  } else if (value instanceof Date) {
    out.push('<value><dateTime.iso8601>', formatIsoDateTime(value), '</dateTime.iso8601></value>\n');
  } else if (value instanceof XmlRpcDateTime) {
    out.push('<value><dateTime.iso8601>', escapeText(value.iso), '</dateTime.iso8601></value>\n');
  } else if (value instanceof Uint8Array) {
    out.push('<value><base64>\n', encodeBase64Lines(value), '</base64></value>\n');
  } else if (Array.isArray(value)) {
    out.push('<value><array><data>\n');
    for (const item of value as readonly XmlRpcValue[]) writeValue(item, out, options, depth + 1);
    out.push('</data></array></value>\n');
  } else if (typeof value === 'object') {
    out.push('<value><struct>\n');
    for (const [name, member] of Object.entries(value)) {
      if (member === undefined) continue; // as JSON.stringify does: an absent member, not a None
      out.push('<member>\n<name>', escapeText(name), '</name>\n');
      writeValue(member, out, options, depth + 1);
      out.push('</member>\n');
    }
    out.push('</struct></value>\n');
  } else {
    throw new XmlRpcMarshalError(`cannot marshal ${typeof value} objects`);
  }
}

/** Python's `xmlrpc.client.escape`, after Odoo's control-character stripping. */
function escapeText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Python's `%Y%m%dT%H:%M:%S` of a UTC instant. */
function formatIsoDateTime(date: Date): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** `base64.encodebytes`: lines of 76 characters, each ending with a newline. */
function encodeBase64Lines(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let out = '';
  for (let i = 0; i < text.length; i += 76) out += `${text.slice(i, i + 76)}\n`;
  return out;
}

/** Python's `repr(float)`: shortest round-trip digits, exponent outside [1e-4, 1e16). */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const shortMantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${shortMantissa}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${intPart}.${fraction || '0'}`;
}

// ------------------------------------------------------------------------------------------
// Decoding
// ------------------------------------------------------------------------------------------

/** Reads a `methodCall` document (bytes are decoded per the XML declaration: UTF-8 or Latin-1). */
export function decodeMethodCall(input: string | Uint8Array): MethodCall {
  const root = parseXml(input);
  expectName(root, 'methodCall');
  const nameNode = childElements(root).find((child) => localName(child) === 'methodName');
  if (!nameNode) throw new XmlRpcParseError('methodCall without methodName');
  const params = childElements(root).find((child) => localName(child) === 'params');
  return { methodName: textOf(nameNode), params: params ? readParams(params) : [] };
}

/** Reads a `methodResponse` document: one value, or a fault. */
export function decodeMethodResponse(input: string | Uint8Array): MethodResponse {
  const root = parseXml(input);
  expectName(root, 'methodResponse');
  const [body] = childElements(root);
  if (!body) throw new XmlRpcParseError('empty methodResponse');
  if (localName(body) === 'fault') {
    const fault = readValue(onlyChild(body, 'value'), 0);
    if (!isStruct(fault)) throw new XmlRpcParseError('fault without a struct');
    const { faultCode, faultString } = fault;
    if ((typeof faultCode !== 'number' && typeof faultCode !== 'string') || typeof faultString !== 'string') {
      throw new XmlRpcParseError('fault without faultCode and faultString');
    }
    return { kind: 'fault', faultCode, faultString };
  }
  expectName(body, 'params');
  const [value] = readParams(body);
  if (value === undefined) throw new XmlRpcParseError('methodResponse without a param');
  return { kind: 'params', value };
}

function readParams(params: XmlElement): XmlRpcValue[] {
  return childElements(params).map((param) => {
    expectName(param, 'param');
    return readValue(onlyChild(param, 'value'), 0);
  });
}

function readValue(node: XmlElement, depth: number): XmlRpcValue {
  expectName(node, 'value');
  if (depth > MAX_DEPTH) throw new XmlRpcParseError('values nested too deeply');
  const [typed, extra] = childElements(node);
  if (!typed) return textOf(node); // an untyped <value> is a string, whitespace included
  if (extra) throw new XmlRpcParseError('value with more than one element');
  const text = textOf(typed);
  switch (localName(typed)) {
    case 'int':
    case 'i4':
    case 'i8':
    case 'i1':
    case 'i2':
    case 'biginteger':
      return readInteger(text);
    case 'double':
    case 'float':
    case 'bigdecimal':
      return readDouble(text);
    case 'boolean':
      if (text === '1') return true;
      if (text === '0') return false;
      throw new XmlRpcParseError('bad boolean value');
    case 'string':
      return text;
    case 'nil':
      return null;
    case 'dateTime.iso8601':
      if (!DATETIME_PATTERN.test(text)) throw new XmlRpcParseError(`bad dateTime.iso8601 value ${JSON.stringify(text)}`);
      return new XmlRpcDateTime(text.trim());
    case 'base64':
      return readBase64(text);
    case 'array':
      return readArray(typed, depth);
    case 'struct':
      return readStruct(typed, depth);
    default:
      throw new XmlRpcParseError(`unknown tag ${JSON.stringify(typed.name)}`);
  }
}

function readInteger(text: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new XmlRpcParseError(`bad int value ${JSON.stringify(text)}`);
  return Number(text);
}

function readDouble(text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(trimmed)) return trimmed.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(trimmed)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(trimmed)) throw new XmlRpcParseError(`bad double value ${JSON.stringify(text)}`);
  return Number(trimmed);
}

function readBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) throw new XmlRpcParseError('bad base64 value');
  return Buffer.from(compact, 'base64');
}

function readArray(node: XmlElement, depth: number): XmlRpcValue[] {
  const [data] = childElements(node);
  if (!data) return [];
  expectName(data, 'data');
  return childElements(data).map((item) => readValue(item, depth + 1));
}

function readStruct(node: XmlElement, depth: number): { [name: string]: XmlRpcValue } {
  const struct: { [name: string]: XmlRpcValue } = {};
  for (const member of childElements(node)) {
    expectName(member, 'member');
    const nameNode = childElements(member).find((child) => localName(child) === 'name');
    const valueNode = childElements(member).find((child) => localName(child) === 'value');
    if (!nameNode || !valueNode) throw new XmlRpcParseError('struct member without name or value');
    // defineProperty: a member called "__proto__" must stay data, never become the prototype.
    Object.defineProperty(struct, textOf(nameNode), {
      value: readValue(valueNode, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return struct;
}

function isStruct(value: XmlRpcValue): value is { readonly [name: string]: XmlRpcValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof Date) && !(value instanceof XmlRpcDateTime);
}

// ------------------------------------------------------------------------------------------
// A minimal XML reader: elements, text, the five entities, character references, CDATA,
// comments and processing instructions. Attributes are read and ignored.
// ------------------------------------------------------------------------------------------

interface XmlElement {
  readonly name: string;
  readonly children: (XmlElement | string)[];
}

function localName(node: XmlElement): string {
  const colon = node.name.lastIndexOf(':');
  return colon < 0 ? node.name : node.name.slice(colon + 1);
}

function expectName(node: XmlElement, name: string): void {
  if (localName(node) !== name) throw new XmlRpcParseError(`expected <${name}>, found <${node.name}>`);
}

function childElements(node: XmlElement): XmlElement[] {
  return node.children.filter((child): child is XmlElement => typeof child !== 'string');
}

function onlyChild(node: XmlElement, name: string): XmlElement {
  const [child] = childElements(node);
  if (!child) throw new XmlRpcParseError(`<${node.name}> without <${name}>`);
  expectName(child, name);
  return child;
}

function textOf(node: XmlElement): string {
  return node.children.filter((child): child is string => typeof child === 'string').join('');
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME_PATTERN = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;

function decodeInput(input: string | Uint8Array): string {
  if (typeof input === 'string') return input;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8' || declared === 'us-ascii' || declared === 'ascii') {
    return bytes.toString('utf8');
  }
  if (declared === 'iso-8859-1' || declared === 'latin-1' || declared === 'latin1') return bytes.toString('latin1');
  throw new XmlRpcParseError(`unsupported encoding ${JSON.stringify(declared)}`);
}

/** Parses one XML document into its root element. Linear in the input; depth-bounded. */
function parseXml(input: string | Uint8Array): XmlElement {
  const xml = decodeInput(input);
  let pos = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  const fail = (message: string): never => {
    throw new XmlRpcParseError(`${message} at offset ${pos}`);
  };
  const skipPast = (terminator: string, what: string): void => {
    const end = xml.indexOf(terminator, pos);
    if (end < 0) fail(`unterminated ${what}`);
    pos = end + terminator.length;
  };
  const readName = (): string => {
    NAME_PATTERN.lastIndex = pos;
    const m = NAME_PATTERN.exec(xml);
    if (!m) return fail('expected a name');
    pos += m[0].length;
    return m[0];
  };
  const appendText = (text: string): void => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (text.trim() !== '') fail('text outside the root element');
      return;
    }
    const last = parent.children[parent.children.length - 1];
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
    else parent.children.push(text);
  };

  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    if (lt !== pos) {
      const end = lt < 0 ? xml.length : lt;
      appendText(decodeEntities(xml.slice(pos, end), pos));
      pos = end;
      continue;
    }
    const next = xml.charCodeAt(pos + 1);
    if (next === 0x2f /* / */) {
      pos += 2;
      const name = readName();
      while (isSpace(xml.charCodeAt(pos))) pos += 1;
      if (xml.charCodeAt(pos) !== 0x3e /* > */) fail('malformed end tag');
      pos += 1;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`mismatched end tag </${name}>`);
      if (stack.length === 0) root = open;
    } else if (next === 0x21 /* ! */ && xml.startsWith('<!--', pos)) {
      skipPast('-->', 'comment');
    } else if (next === 0x21 && xml.startsWith('<![CDATA[', pos)) {
      if (stack.length === 0) fail('CDATA outside the root element');
      const start = pos + 9;
      skipPast(']]>', 'CDATA section');
      appendText(xml.slice(start, pos - 3));
    } else if (next === 0x21) {
      fail('DOCTYPE and entity declarations are not accepted');
    } else if (next === 0x3f /* ? */) {
      skipPast('?>', 'processing instruction');
    } else {
      pos += 1;
      if (root) fail('content after the root element');
      const element: XmlElement = { name: readName(), children: [] };
      const selfClosing = skipAttributes();
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      if (selfClosing) {
        if (!parent) root = element;
      } else {
        if (stack.length >= MAX_DEPTH) fail('elements nested too deeply');
        stack.push(element);
      }
    }
  }
  if (stack.length > 0) fail(`unclosed element <${stack[stack.length - 1]?.name}>`);
  if (!root) fail('no root element');
  return root as XmlElement;

  /** Skips `name="value"` pairs up to `>` or `/>`; true for a self-closing tag. */
  function skipAttributes(): boolean {
    for (;;) {
      while (isSpace(xml.charCodeAt(pos))) pos += 1;
      const c = xml[pos];
      if (c === '>') {
        pos += 1;
        return false;
      }
      if (c === '/' && xml[pos + 1] === '>') {
        pos += 2;
        return true;
      }
      if (c === undefined) fail('unterminated start tag');
      readName();
      while (isSpace(xml.charCodeAt(pos))) pos += 1;
      if (xml[pos] !== '=') fail('attribute without a value');
      pos += 1;
      while (isSpace(xml.charCodeAt(pos))) pos += 1;
      const quote = xml[pos];
      if (quote !== '"' && quote !== "'") fail('unquoted attribute value');
      pos += 1;
      skipPast(quote as string, 'attribute value');
    }
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

function decodeEntities(text: string, offset: number): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlRpcParseError(`unterminated entity reference near offset ${offset}`);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid = /^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      if (!valid) throw new XmlRpcParseError(`bad character reference &${ref}; near offset ${offset}`);
      return String.fromCodePoint(code);
    }
    const entity = Object.hasOwn(ENTITIES, ref) ? ENTITIES[ref] : undefined;
    if (entity === undefined) throw new XmlRpcParseError(`undefined entity &${ref}; near offset ${offset}`);
    return entity;
  });
}
