/** v4 → v5: `new ErDiagram({ configs })` is `new ErDiagram({ entities })` (section 9.2). */
import { findProp, newExpressionsOf, optionsArg, renameKey, unsafeOptions } from '../lib/ast.js';
import { SCRIPT_EXTENSIONS } from '../lib/parse.js';
import { scriptTransform } from '../script-steps.js';
import { meta } from './meta.js';

const transform = scriptTransform(
  {
    ...meta,
    extensions: SCRIPT_EXTENSIONS,
  },
  {
    wants: (source) => source.includes('ErDiagram'),
    apply({ sf, imports }, { changes: ch }) {
      for (const { node } of newExpressionsOf(sf, imports, ['ErDiagram'])) {
        const opts = optionsArg(node);
        if (!opts) {
          if (node.arguments?.length) ch.manual(node, 'ErDiagram options are not an object literal: rename configs to entities');
          continue;
        }
        const unsafe = unsafeOptions(opts);
        const configs = findProp(opts, 'configs');
        if (unsafe) ch.manual(node, `ErDiagram: ${unsafe} (configs → entities)`);
        else if (configs && findProp(opts, 'entities')) ch.manual(configs, 'ErDiagram has both configs and entities: merge them');
        else if (configs) renameKey(ch, configs, 'entities');
      }
    },
  },
);

export default transform;
