import {
  XmlRpcDateTime,
  XmlRpcMarshalError,
  XmlRpcParseError,
  decodeMethodCall,
  decodeMethodResponse,
  encodeFault,
  encodeMethodCall,
  encodeMethodResponse,
  pythonFloatRepr,
} from '../src/xmlrpc-codec';

describe('encodeMethodResponse', () => {
  it('writes what Odoo writes (Python marshaller, Odoo header)', () => {
    const xml = encodeMethodResponse([1, 'a<&>b', true, 1.5, { k: [2 ** 31 - 1] }, 3e9, 1e16, 1.5e-7]);
    // The params block is byte-identical to Python's xmlrpc.client.dumps output.
    expect(xml).toBe(
      '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><array><data>\n' +
        '<value><int>1</int></value>\n<value><string>a&lt;&amp;&gt;b</string></value>\n' +
        '<value><boolean>1</boolean></value>\n<value><double>1.5</double></value>\n' +
        '<value><struct>\n<member>\n<name>k</name>\n<value><array><data>\n<value><int>2147483647</int></value>\n' +
        '</data></array></value>\n</member>\n</struct></value>\n<value><double>3000000000.0</double></value>\n' +
        '<value><double>1e+16</double></value>\n<value><double>1.5e-07</double></value>\n' +
        '</data></array></value>\n</param>\n</params>\n\n</methodResponse>\n',
    );
  });

  it('refuses None as Odoo does', () => {
    expect(() => encodeMethodResponse(null)).toThrow(new XmlRpcMarshalError('cannot marshal None unless allow_none is enabled'));
    expect(() => encodeMethodResponse({ a: [1, null] })).toThrow(XmlRpcMarshalError);
    expect(encodeMethodResponse(null, { allowNone: true })).toContain('<value><nil/></value>');
  });

  it('strips control characters except tab, LF and CR', () => {
    expect(encodeMethodResponse('a\u0000b\u0007c\td\ne\rf\u001f')).toContain('<string>abc\td\ne\rf</string>');
  });

  it('sends ints beyond 32 bits as doubles', () => {
    expect(encodeMethodResponse(2 ** 31)).toContain('<double>2147483648.0</double>');
    expect(encodeMethodResponse(-(2 ** 31))).toContain('<int>-2147483648</int>');
    expect(encodeMethodResponse(-(2 ** 31) - 1)).toContain('<double>-2147483649.0</double>');
  });

  it('writes dates, datetimes and bytes', () => {
    expect(encodeMethodResponse(new Date(Date.UTC(2025, 0, 31, 8, 5, 9)))).toContain('<dateTime.iso8601>20250131T08:05:09</dateTime.iso8601>');
    expect(encodeMethodResponse(Buffer.from('hello'))).toContain('<value><base64>\naGVsbG8=\n</base64></value>');
  });
});

describe('encodeFault / encodeMethodCall', () => {
  it('writes a fault as Odoo does', () => {
    expect(encodeFault(3, 'Access Denied')).toBe(
      '<?xml version="1.0"?>\n<methodResponse>\n<fault>\n<value><struct>\n<member>\n<name>faultCode</name>\n' +
        '<value><int>3</int></value>\n</member>\n<member>\n<name>faultString</name>\n' +
        '<value><string>Access Denied</string></value>\n</member>\n</struct></value>\n</fault>\n\n</methodResponse>\n',
    );
  });

  it('writes a call as Python does', () => {
    expect(encodeMethodCall({ methodName: 'execute_kw', params: [1, 'x'] })).toBe(
      "<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n<param>\n" +
        '<value><int>1</int></value>\n</param>\n<param>\n<value><string>x</string></value>\n</param>\n</params>\n</methodCall>\n',
    );
  });
});

describe('pythonFloatRepr', () => {
  it.each([
    [0.1, '0.1'],
    [100, '100.0'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [123456789.125, '123456789.125'],
    [1e-4, '0.0001'],
    [1e-5, '1e-05'],
    [-2.5, '-2.5'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
    [NaN, 'nan'],
    [-Infinity, '-inf'],
  ])('%p → %s', (value, repr) => expect(pythonFloatRepr(value)).toBe(repr));
});

describe('decodeMethodCall', () => {
  it('reads the reference example of execute_kw', () => {
    const xml = `<?xml version="1.0"?>
<methodCall><methodName>execute_kw</methodName><params>
 <param><value><string>demo</string></value></param><param><value><int>7</int></value></param>
 <param><value><string>3f9c0d</string></value></param><param><value><string>res.partner</string></value></param>
 <param><value><string>search_read</string></value></param>
 <param><value><array><data><value><array><data><value><array><data><value><string>is_company</string></value>
   <value><string>=</string></value><value><boolean>1</boolean></value></data></array></value></data></array></value></data></array></value></param>
 <param><value><struct><member><name>fields</name><value><array><data><value><string>name</string></value></data></array></value></member>
   <member><name>limit</name><value><int>2</int></value></member></struct></value></param>
</params></methodCall>`;
    expect(decodeMethodCall(xml)).toEqual({
      methodName: 'execute_kw',
      params: ['demo', 7, '3f9c0d', 'res.partner', 'search_read', [[['is_company', '=', true]]], { fields: ['name'], limit: 2 }],
    });
  });

  it('reads every value type, untyped strings and entities', () => {
    const xml = `<methodCall><methodName>m</methodName><params>
      <param><value>  plain text &amp; more </value></param>
      <param><value><i4> -12 </i4></value></param>
      <param><value><double>-1.5e3</double></value></param>
      <param><value><boolean>0</boolean></value></param>
      <param><value><dateTime.iso8601>20250131T08:30:00</dateTime.iso8601></value></param>
      <param><value><base64>aGVs
bG8=</base64></value></param>
      <param><value><nil/></value></param>
      <param><value><string>&#233;&#x20AC;&lt;&gt;&quot;&apos;<![CDATA[<raw>]]></string></value></param>
      <param><value/></param>
      <param><value><array><data/></array></value></param>
      <param><value><struct><member><name>__proto__</name><value><int>1</int></value></member></struct></value></param>
    </params></methodCall>`;
    const { params } = decodeMethodCall(xml);
    expect(params.slice(0, 4)).toEqual(['  plain text & more ', -12, -1500, false]);
    expect(params[4]).toEqual(new XmlRpcDateTime('20250131T08:30:00'));
    expect((params[4] as XmlRpcDateTime).toOdooString()).toBe('2025-01-31 08:30:00');
    expect(Buffer.from(params[5] as Uint8Array).toString()).toBe('hello');
    expect(params.slice(6, 10)).toEqual([null, 'é€<>"\'<raw>', '', []]);
    const struct = params[10] as Record<string, unknown>;
    expect(Object.getPrototypeOf(struct)).toBe(Object.prototype);
    expect(Object.keys(struct)).toEqual(['__proto__']);
  });

  it('reads a call without params and Latin-1 bytes', () => {
    expect(decodeMethodCall('<methodCall><methodName>version</methodName></methodCall>')).toEqual({ methodName: 'version', params: [] });
    const latin1 = Buffer.from(
      "<?xml version='1.0' encoding='iso-8859-1'?><methodCall><methodName>m</methodName><params><param><value>caf\u00e9</value></param></params></methodCall>",
      'latin1',
    );
    expect(decodeMethodCall(latin1).params).toEqual(['café']);
  });

  it.each([
    ['empty input', ''],
    ['not XML', 'hello'],
    ['unclosed', '<methodCall><methodName>x</methodName>'],
    ['mismatched tags', '<methodCall><methodName>x</methodCall></methodName>'],
    ['wrong root', '<methodResponse/>'],
    ['bad boolean', '<methodCall><methodName>m</methodName><params><param><value><boolean>2</boolean></value></param></params></methodCall>'],
    ['bad int', '<methodCall><methodName>m</methodName><params><param><value><int>1.5</int></value></param></params></methodCall>'],
    ['unknown tag', '<methodCall><methodName>m</methodName><params><param><value><blob/></value></param></params></methodCall>'],
    ['unknown entity', '<methodCall><methodName>&foo;</methodName></methodCall>'],
    ['prototype entity', '<methodCall><methodName>&constructor;</methodName></methodCall>'],
    ['bare ampersand', '<methodCall><methodName>a & b</methodName></methodCall>'],
    ['doctype', '<!DOCTYPE x [<!ENTITY a "b">]><methodCall><methodName>&a;</methodName></methodCall>'],
    ['two roots', '<methodCall><methodName>x</methodName></methodCall><methodCall/>'],
    ['unterminated comment', '<methodCall><!-- x'],
  ])('refuses %s with a typed error', (_label, xml) => {
    expect(() => decodeMethodCall(xml)).toThrow(XmlRpcParseError);
  });

  it('bounds nesting depth instead of overflowing the stack', () => {
    const deep = '<value><array><data>'.repeat(100_000);
    const xml = `<methodCall><methodName>m</methodName><params><param>${deep}</param></params></methodCall>`;
    expect(() => decodeMethodCall(xml)).toThrow(XmlRpcParseError);
  });

  it('parses a large document in linear time', () => {
    const items = '<value><int>1</int></value>'.repeat(200_000);
    const xml = `<methodCall><methodName>m</methodName><params><param><value><array><data>${items}</data></array></value></param></params></methodCall>`;
    // CPU time, not wall time: the decode is synchronous, and a loaded machine's wall time measures the others.
    const cpu = process.cpuUsage();
    const [array] = decodeMethodCall(xml).params;
    const used = process.cpuUsage(cpu);
    expect((array as unknown[]).length).toBe(200_000);
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
  });
});

describe('decodeMethodResponse', () => {
  it('round-trips values and faults', () => {
    const value = { a: [1, 'two', false, 2.5], b: { c: 'd' } };
    expect(decodeMethodResponse(encodeMethodResponse(value))).toEqual({ kind: 'params', value });
    expect(decodeMethodResponse(encodeFault(2, "Object x doesn't exist"))).toEqual({ kind: 'fault', faultCode: 2, faultString: "Object x doesn't exist" });
    expect(decodeMethodResponse(encodeFault('warning -- UserError\n\nboom', ''))).toEqual({
      kind: 'fault',
      faultCode: 'warning -- UserError\n\nboom',
      faultString: '',
    });
  });

  it('refuses a response without a value', () => {
    expect(() => decodeMethodResponse('<methodResponse><params/></methodResponse>')).toThrow(XmlRpcParseError);
    expect(() => decodeMethodResponse('<methodResponse><fault><value><int>1</int></value></fault></methodResponse>')).toThrow(XmlRpcParseError);
  });
});
