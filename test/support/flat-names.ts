/**
 * The independent oracle for v5 flat names: a table written by hand from DESIGN.md section 9 —
 * lowerFirst(Entity) + upperFirst(camel(method)), camel splitting on `_`, keeping the first
 * piece, title-casing the rest (a letter after a digit upper), empty pieces vanishing — never
 * computed. The compat tests (flat-names, agreement) and the codemod tests read it, so a bug in
 * the mapping both sides share (`compat/naming.ts`, `compat/flat-index.ts`) turns both red.
 */

/** [entity, method (the v6 field), v5 flat name]. */
export type FlatName = readonly [entity: string, method: string, flat: string];

/** DESIGN.md's examples and the rule's edges: digits, acronyms, snake_case, compound entities. */
export const RULE_TABLE: readonly FlatName[] = [
  ['User', 'get_all', 'userGetAll'],
  ['User', 'getAll', 'userGetAll'],
  ['TaskItem', 'byId', 'taskItemById'],
  ['HTTPRequest', 'get_by_id', 'hTTPRequestGetById'],
  ['User', 'get_by_ID', 'userGetById'],
  ['User', 'list_items_2fa', 'userListItems2Fa'],
  ['Order', 'find__by_x', 'orderFindByX'],
  ['Order', 'find_by_x_', 'orderFindByX'],
  ['Order', 'keepCamel_THEN_snake', 'orderKeepCamelThenSnake'],
  ['Order', 'a_1_b', 'orderA1B'],
  ['Order', 'find_by_x2y_ZZ', 'orderFindByX2YZz'],
  ['Order', 'list', 'orderList'],
  ['A', 'x', 'aX'],
  ['URL', 'parse_v2', 'uRLParseV2'],
  ['OrderLine2', 'by_sku_v3', 'orderLine2BySkuV3'],
];

/** Every entity/method of the agreement corpus's schemas (test/compat/helpers.ts, ergraph-domain.ts). */
export const CORPUS_TABLE: readonly FlatName[] = [
  ['User', 'getAll', 'userGetAll'],
  ['User', 'byId', 'userById'],
  ['User', 'list_items_2fa', 'userListItems2Fa'],
  ['User', 'get_by_ID', 'userGetById'],
  ['User', 'broken', 'userBroken'],
  ['User', 'rename', 'userRename'],
  ['Task', 'getAll', 'taskGetAll'],
  ['Task', 'byId', 'taskById'],
  ['Task', 'mustExist', 'taskMustExist'],
  ['Task', 'create', 'taskCreate'],
  ['Task', 'complete', 'taskComplete'],
  ['Task', 'fail', 'taskFail'],
];

/** The hand-written flat name of `entity.method`, or undefined when the table lacks the pair. */
export function expectedFlatName(entity: string, method: string): string | undefined {
  return [...CORPUS_TABLE, ...RULE_TABLE].find(([e, m]) => e === entity && m === method)?.[2];
}
