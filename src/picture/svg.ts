/**
 * The picture as a self-contained SVG, laid out here: a grid of boxes (entities, then the
 * entities of federation members, then use-case services) with straight labelled edges.
 *
 * Why our own layout: the page must render offline from what is installed, and there is no
 * maintained ER-layout library that runs without a browser build or a network fetch (Mermaid
 * lays out in the browser from assets the package does not ship; Graphviz is a native binary).
 * A deterministic grid is enough to see every entity and edge, and the same input always gives
 * the same bytes, which tests and diffs rely on.
 */
import { escapeHtml as escape } from '../graphql/page.js';
import type { ErPicture } from './model.js';

export interface ErSvgOptions {
  /** Where an entity's name links to (GraphiQL's docs for its type); no link when undefined. */
  docsUrl?: (entity: string) => string | undefined;
}

type Kind = 'entity' | 'member' | 'service';

interface Box {
  id: string;
  kind: Kind;
  title: string;
  rows: string[];
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Edge {
  from: string;
  to: string;
  label: string;
  kind: 'relationship' | 'remote' | 'reads';
}

const CHAR = 7.2; // average glyph width of the 12px sans-serif used below
const ROW = 18;
const HEADER = 28;
const PAD = 12;
const MIN_GAP_X = 110;
const MIN_GAP_Y = 90;
const MARGIN = 30;

const textWidth = (s: string) => s.length * CHAR;
const round = (n: number) => Math.round(n * 10) / 10;

function boxesOf(picture: ErPicture): Box[] {
  const boxes: Box[] = [];
  const add = (id: string, kind: Kind, title: string, rows: string[]) => {
    const width = Math.max(150, ...[title, ...rows].map((s) => textWidth(s) + 2 * PAD));
    boxes.push({ id, kind, title, rows, x: 0, y: 0, width, height: HEADER + rows.length * ROW + (rows.length ? 8 : 0) });
  };
  for (const e of picture.entities) {
    add(e.name, 'entity', e.name, [
      ...e.fields.map((f) => `${f.name}: ${f.type}`),
      ...[...e.queries, ...e.mutations].map((op) => `${op.kind} ${op.name}: ${op.returns}`),
    ]);
  }
  for (const m of picture.members) for (const e of m.entities) add(`${m.name}.${e}`, 'member', `${m.name}.${e}`, [`member service ${m.name}`]);
  for (const s of picture.services) add(s.name, 'service', s.name, s.operations.map((op) => `${op.kind} ${op.name}: ${op.returns}`));
  return boxes;
}

/**
 * Row-major grid, about square; each column as wide as its widest box, each row as tall as its
 * tallest; the gaps leave room for the longest edge label between neighbours.
 */
function layout(boxes: Box[], longestLabel: number): { width: number; height: number } {
  const GAP_X = Math.max(MIN_GAP_X, labelWidth(longestLabel) + 40);
  const GAP_Y = MIN_GAP_Y;
  const columns = Math.max(1, Math.ceil(Math.sqrt(boxes.length)));
  const widths: number[] = [];
  const heights: number[] = [];
  boxes.forEach((b, i) => {
    const c = i % columns;
    const r = Math.floor(i / columns);
    widths[c] = Math.max(widths[c] ?? 0, b.width);
    heights[r] = Math.max(heights[r] ?? 0, b.height);
  });
  const xs = widths.map((_, c) => MARGIN + widths.slice(0, c).reduce((a, w) => a + w + GAP_X, 0));
  const ys = heights.map((_, r) => MARGIN + heights.slice(0, r).reduce((a, h) => a + h + GAP_Y, 0));
  boxes.forEach((b, i) => {
    b.x = xs[i % columns]!;
    b.y = ys[Math.floor(i / columns)]!;
  });
  const sum = (values: number[], gap: number) => values.reduce((a, v) => a + v, 0) + gap * Math.max(0, values.length - 1);
  return { width: sum(widths, GAP_X) + 2 * MARGIN, height: sum(heights, GAP_Y) + 2 * MARGIN };
}

function edgesOf(picture: ErPicture): Edge[] {
  return [
    ...picture.relationships.map((r): Edge => ({ from: r.from, to: r.to, label: `${r.name} (fk ${r.fk}) ${r.cardinality}`, kind: 'relationship' })),
    ...picture.members.flatMap((m) =>
      m.relationships.map((r): Edge => ({ from: r.from, to: `${m.name}.${r.to}`, label: `${r.name} (fk ${r.fk}) ${r.cardinality}`, kind: 'remote' })),
    ),
    ...picture.services.flatMap((s) => [...new Set(s.operations.flatMap((op) => op.reads))].map((e): Edge => ({ from: s.name, to: e, label: 'reads', kind: 'reads' }))),
  ];
}

/** Where the segment from the box's center towards (tx, ty) leaves the box. */
function border(b: Box, tx: number, ty: number): [number, number] {
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const scale = Math.min(dx === 0 ? Infinity : b.width / 2 / Math.abs(dx), dy === 0 ? Infinity : b.height / 2 / Math.abs(dy));
  return [cx + dx * scale, cy + dy * scale];
}

const labelWidth = (chars: number) => chars * CHAR * 0.9 + 8;

function label(x: number, y: number, text: string): string {
  const w = labelWidth(text.length);
  return (
    `<rect class="er-edge-label-bg" x="${round(x - w / 2)}" y="${round(y - 9)}" width="${round(w)}" height="16" rx="3"/>` +
    `<text class="er-edge-label" x="${round(x)}" y="${round(y + 3)}" text-anchor="middle">${escape(text)}</text>`
  );
}

const hits = (b: Box, x: number, y: number) => x > b.x - 4 && x < b.x + b.width + 4 && y > b.y - 4 && y < b.y + b.height + 4;

interface Area {
  width: number;
  height: number;
}

/** Whether the curve through `point(t)` runs over a box other than its ends, or off the picture. */
function crosses(point: (t: number) => [number, number], obstacles: readonly Box[], area: Area): boolean {
  for (let i = 1; i < 40; i++) {
    const [x, y] = point(i / 40);
    if (x < 10 || y < 12 || x > area.width - 10 || y > area.height - 12) return true;
    if (obstacles.some((b) => hits(b, x, y))) return true;
  }
  return false;
}

/**
 * `offset`: sideways shift of the k-th of parallel edges. `labelDy`: where its label sits,
 * above or below the middle of the gap between the two boxes: labels are wide and short, so
 * parallel ones are kept apart vertically, each on its own line. An edge whose straight line
 * would run under another box bends around it instead (the first of a few growing bends that
 * clears every box and stays inside the picture), so no edge is hidden.
 */
function edgeSvg(edge: Edge, from: Box, to: Box, offset: number, labelDy: number, obstacles: readonly Box[], area: Area): string {
  const attrs = `class="er-edge er-edge-${edge.kind}" data-from="${escape(edge.from)}" data-to="${escape(edge.to)}"`;
  if (from === to) {
    // A self-reference: a loop on the box's right side.
    const x = from.x + from.width;
    const y = from.y + HEADER / 2 + offset;
    const path = `M${round(x)},${round(y)} C${round(x + 60)},${round(y - 30)} ${round(x + 60)},${round(y + 40)} ${round(x)},${round(y + 14)}`;
    // The label starts right of the loop, off the box.
    return `<g ${attrs}><path d="${path}" marker-end="url(#er-arrow)"/>${label(x + 52 + labelWidth(edge.label.length) / 2, y + 6, edge.label)}</g>`;
  }
  const fx = from.x + from.width / 2;
  const fy = from.y + from.height / 2;
  const tx = to.x + to.width / 2;
  const ty = to.y + to.height / 2;
  // Parallel edges between one pair are spread sideways so each stays visible.
  const length = Math.hypot(tx - fx, ty - fy) || 1;
  const [ux, uy] = [-(ty - fy) / length, (tx - fx) / length]; // unit normal
  const nx = ux * offset;
  const ny = uy * offset;
  const [x1, y1] = border(from, tx + nx, ty + ny);
  const [x2, y2] = border(to, fx + nx, fy + ny);
  const [sx, sy, ex, ey] = [x1 + nx, y1 + ny, x2 + nx, y2 + ny];
  const straight = (t: number): [number, number] => [sx + (ex - sx) * t, sy + (ey - sy) * t];
  if (!crosses(straight, obstacles, area)) {
    let [lx, ly] = [(sx + ex) / 2, (sy + ey) / 2];
    if (Math.abs(ey - sy) > 0.2 * Math.abs(ex - sx)) {
      // Not near-horizontal: put the label at its height on the line, around the middle of the
      // gap the pair shares (near-horizontal parallel lines are apart vertically already).
      const [, gy1] = border(from, tx, ty);
      const [, gy2] = border(to, fx, fy);
      ly = (gy1 + gy2) / 2 + labelDy;
      lx = sx + ((ly - sy) * (ex - sx)) / (ey - sy);
    }
    return (
      `<g ${attrs}><line x1="${round(sx)}" y1="${round(sy)}" x2="${round(ex)}" y2="${round(ey)}" marker-end="url(#er-arrow)"/>` +
      `${label(lx, ly, edge.label)}</g>`
    );
  }
  const bends = [80, -80, 160, -160, 240, -240, 320, -320];
  let curve: { s: [number, number]; c: [number, number]; e: [number, number]; at: (t: number) => [number, number] } | undefined;
  for (const bend of bends) {
    // A quadratic passes halfway to its control point: parallel curves need a wider spread.
    const c: [number, number] = [(fx + tx) / 2 + ux * (bend + 2.5 * offset), (fy + ty) / 2 + uy * (bend + 2.5 * offset)];
    const s0 = border(from, c[0], c[1]);
    const e0 = border(to, c[0], c[1]);
    const at = (t: number): [number, number] => [
      (1 - t) ** 2 * s0[0] + 2 * (1 - t) * t * c[0] + t ** 2 * e0[0],
      (1 - t) ** 2 * s0[1] + 2 * (1 - t) * t * c[1] + t ** 2 * e0[1],
    ];
    curve = { s: s0, c, e: e0, at };
    if (!crosses(at, obstacles, area)) break;
  }
  const { s: cs, c, e: ce, at } = curve!;
  const [lx, ly] = at(0.5);
  return (
    `<g ${attrs}><path d="M${round(cs[0])},${round(cs[1])} Q${round(c[0])},${round(c[1])} ${round(ce[0])},${round(ce[1])}" marker-end="url(#er-arrow)"/>` +
    `${label(lx, ly, edge.label)}</g>`
  );
}

function boxSvg(b: Box, docsUrl: ErSvgOptions['docsUrl']): string {
  const href = b.kind === 'entity' ? docsUrl?.(b.id) : undefined;
  const title = `<text class="er-title" x="${round(b.x + PAD)}" y="${round(b.y + 19)}">${escape(b.title)}</text>`;
  const linked = href ? `<a class="er-docs-link" href="${escape(href)}">${title}</a>` : title;
  const rows = b.rows
    .map((r, i) => `<text class="er-row" x="${round(b.x + PAD)}" y="${round(b.y + HEADER + 14 + i * ROW)}">${escape(r)}</text>`)
    .join('');
  return (
    `<g class="er-${b.kind}" data-${b.kind}="${escape(b.id)}">` +
    `<rect class="er-box" x="${round(b.x)}" y="${round(b.y)}" width="${round(b.width)}" height="${round(b.height)}" rx="4"/>` +
    `<rect class="er-header" x="${round(b.x)}" y="${round(b.y)}" width="${round(b.width)}" height="${HEADER}" rx="4"/>` +
    `${linked}${rows}</g>`
  );
}

const STYLE = `
  .er-box { fill: #fff; stroke: #4a5568; stroke-width: 1.2; }
  .er-entity .er-header { fill: #dbe8ff; stroke: #4a5568; }
  .er-member .er-box, .er-member .er-header { stroke-dasharray: 5 3; }
  .er-member .er-header { fill: #eeeeee; stroke: #4a5568; }
  .er-service .er-header { fill: #ffe9c7; stroke: #4a5568; }
  .er-title { font: bold 13px sans-serif; fill: #1a202c; }
  .er-docs-link .er-title { fill: #1d4ed8; text-decoration: underline; }
  .er-row { font: 12px sans-serif; fill: #2d3748; }
  .er-edge line, .er-edge path { stroke: #4a5568; stroke-width: 1.2; fill: none; }
  .er-edge-remote line, .er-edge-remote path { stroke-dasharray: 6 4; }
  .er-edge-reads line, .er-edge-reads path { stroke: #b7791f; stroke-dasharray: 2 3; }
  .er-edge-label { font: 11px sans-serif; fill: #2d3748; }
  .er-edge-label-bg { fill: #fff; opacity: 0.9; }
`;

export function erSvg(picture: ErPicture, options: ErSvgOptions = {}): string {
  const boxes = boxesOf(picture);
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const edges = edgesOf(picture).filter((e) => byId.has(e.from) && byId.has(e.to));
  const { width, height } = layout(boxes, Math.max(0, ...edges.map((e) => e.label.length)));
  const pairCount = new Map<string, number>();
  const pairKey = (e: Edge) => [e.from, e.to].sort().join('\u0000');
  for (const e of edges) pairCount.set(pairKey(e), (pairCount.get(pairKey(e)) ?? 0) + 1);
  const seen = new Map<string, number>();
  const edgeParts = edges.map((e) => {
    const key = pairKey(e);
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const count = pairCount.get(key)!;
    const centered = index - (count - 1) / 2;
    const spread = e.from === e.to ? index * 22 : centered * 18 * (e.from < e.to ? 1 : -1);
    const [from, to] = [byId.get(e.from)!, byId.get(e.to)!];
    return edgeSvg(e, from, to, spread, centered * 22, boxes.filter((b) => b !== from && b !== to), { width: width + 60, height });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="er-diagram" width="${round(width + 60)}" height="${round(height)}" viewBox="0 0 ${round(width + 60)} ${round(height)}" role="img" aria-label="ER diagram">` +
    `<style>${STYLE}</style>` +
    `<defs><marker id="er-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#4a5568"/></marker></defs>` +
    `${edgeParts.join('')}${boxes.map((b) => boxSvg(b, options.docsUrl)).join('')}</svg>\n`
  );
}
