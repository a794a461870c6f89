/**
 * The v5 naming rule for root fields, kept in one place: the compat layer serves these names and
 * the v5-to-v6 codemod resolves them, so both must agree on every edge case.
 */

const isLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase();

/**
 * Python's `str.title()` as v5 applied it: a letter is upper-cased when it does not follow another
 * letter (so `2fa` becomes `2Fa`), every other letter is lower-cased (`ID` becomes `Id`).
 */
function titleCase(piece: string): string {
  let out = '';
  let previousIsLetter = false;
  for (const c of piece) {
    const letter = isLetter(c);
    out += letter ? (previousIsLetter ? c.toLowerCase() : c.toUpperCase()) : c;
    previousIsLetter = letter;
  }
  return out;
}

/** v5's `to_camel_case`: the first `_` piece verbatim, every later piece title-cased. */
export function toV5CamelCase(method: string): string {
  const [first = '', ...rest] = method.split('_');
  return first + rest.map(titleCase).join('');
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The v5 flat root field name of `entity.method` (`method` is the v6 field name: the method name
 * or its `name` override): `User.get_all` → `userGetAll`, `HTTPRequest.get_by_id` →
 * `hTTPRequestGetById`.
 */
export function v5FieldName(entity: string, method: string): string {
  return lowerFirst(entity) + upperFirst(toV5CamelCase(method));
}
