/** The ER picture: `ergraph er` as functions (data, Mermaid, DOT, SVG). */
export { erPicture, ER_PICTURE_FORMAT } from './model.js';
export type {
  ErPicture,
  ErPictureOptions,
  ErEntity,
  ErField,
  ErOperation,
  ErRelationship,
  ErMember,
  ErService,
  ErServiceOperation,
  Cardinality,
  PictureServices,
} from './model.js';
export { erMermaid } from './mermaid.js';
export { erDot } from './dot.js';
export { erSvg } from './svg.js';
export type { ErSvgOptions } from './svg.js';

import { erDot } from './dot.js';
import { erMermaid } from './mermaid.js';
import type { ErPicture } from './model.js';

export const ER_FORMATS = ['mermaid', 'dot', 'json'] as const;
export type ErFormat = (typeof ER_FORMATS)[number];

/** The picture in one of the text formats `ergraph er --format` prints. */
export function formatErPicture(picture: ErPicture, format: ErFormat): string {
  if (format === 'mermaid') return erMermaid(picture);
  if (format === 'dot') return erDot(picture);
  return `${JSON.stringify(picture, null, 2)}\n`;
}
