/**
 * RFC 6570 URI template expansion for linkifier URL templates such as
 * `https://trac.example.com/ticket/{id}`. Level 1 (`{var}`) is what linkifiers use; the level 2/3
 * operators (`+ # . / ; ? &`) and variable lists are supported too. Undefined variables expand to
 * nothing, as the RFC says.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

interface Operator {
  first: string;
  separator: string;
  named: boolean;
  /** Whether `=` follows a name whose value is empty (`?x=` vs `;x`). */
  equalsIfEmpty: boolean;
  allowReserved: boolean;
}

const OPERATORS: Readonly<Record<string, Operator>> = {
  '': { first: '', separator: ',', named: false, equalsIfEmpty: false, allowReserved: false },
  '+': { first: '', separator: ',', named: false, equalsIfEmpty: false, allowReserved: true },
  '#': { first: '#', separator: ',', named: false, equalsIfEmpty: false, allowReserved: true },
  '.': { first: '.', separator: '.', named: false, equalsIfEmpty: false, allowReserved: false },
  '/': { first: '/', separator: '/', named: false, equalsIfEmpty: false, allowReserved: false },
  ';': { first: ';', separator: ';', named: true, equalsIfEmpty: false, allowReserved: false },
  '?': { first: '?', separator: '&', named: true, equalsIfEmpty: true, allowReserved: false },
  '&': { first: '&', separator: '&', named: true, equalsIfEmpty: true, allowReserved: false },
};

function encodeValue(value: string, allowReserved: boolean): string {
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index] ?? '';
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) {
      out += char;
    } else if (allowReserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(index + 1, index + 3))) {
      out += char; // an existing pct-encoded triplet stays as it is
    } else {
      const codepoint = value.codePointAt(index) ?? 0;
      const encoded = String.fromCodePoint(codepoint);
      if (codepoint > 0xffff) index++;
      out += [...Buffer.from(encoded, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    }
  }
  return out;
}

function expandExpression(expression: string, variables: Readonly<Record<string, string | undefined>>): string {
  const operatorChar = /^[+#./;?&]/.test(expression) ? (expression[0] ?? '') : '';
  const operator = OPERATORS[operatorChar] ?? OPERATORS[''];
  if (operator === undefined) return '';
  const parts: string[] = [];
  for (const name of expression.slice(operatorChar.length).split(',')) {
    const value = variables[name.trim()];
    if (value === undefined) continue;
    const encoded = encodeValue(value, operator.allowReserved);
    if (!operator.named) parts.push(encoded);
    else parts.push(value === '' && !operator.equalsIfEmpty ? name : `${name}=${encoded}`);
  }
  return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
}

export function expandUriTemplate(template: string, variables: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([^{}]*)\}/g, (_whole, expression: string) => expandExpression(expression, variables));
}
