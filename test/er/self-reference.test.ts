import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model, ref, Resolver, type AnyModelClass } from 'ergraph';

// The interface names the field type: inference cannot type a class inside its own base expression.
interface TreeNodeData {
  id: number;
  parent: TreeNodeData | null;
  depth: number;
}

class TreeNode extends model({
  id: z.int(),
  parent: ref<TreeNodeData>((): AnyModelClass => TreeNode).nullable(),
  depth: z.int().default(0),
}) {
  resolveDepth(): number {
    let depth = 0;
    for (let p = this.parent; p; p = p.parent) depth++;
    return depth;
  }
}

describe('self-referencing models', () => {
  it('build nested instances of themselves and resolve through them', async () => {
    const leaf = new TreeNode({ id: 3, parent: { id: 2, parent: { id: 1, parent: null } } });
    expect(leaf.parent).toBeInstanceOf(TreeNode);
    expect(leaf.parent?.parent).toBeInstanceOf(TreeNode);
    const grandparentId: number | undefined = leaf.parent?.parent?.id; // typed through the interface
    expect(grandparentId).toBe(1);
    await new Resolver().resolve(leaf);
    expect([leaf.depth, leaf.parent?.depth, leaf.parent?.parent?.depth]).toEqual([2, 1, 0]);
  });
});
