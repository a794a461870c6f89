/**
 * `ergraph-migrate --help` laid out from the table the CLI declares its commands and options with
 * (cli.ts), without yargs (issue 31.3). yargs lays help out through cliui and wrap-ansi, which ask
 * string-width for the width of every word; the string-width 7 an app's install gives them runs an
 * emoji regex per character (~130 ms of a ~500 ms `--help`), and string-width 8 compiles a
 * `\p{RGI_Emoji}` regex (~55 ms) on the first word that is not ASCII (`3 → 4`). `.wrap(null)` still
 * measured ~50 ms in string-width and left 200-column lines. This text is ours: every character
 * is one column wide (test/codemods/cli-start.test.ts checks that, and that the words are
 * yargs' own help for the same declarations), so its width is its length.
 */
export interface HelpOption {
  type: 'boolean' | 'string' | 'number';
  describe: string;
  array?: boolean;
  default?: unknown;
  demandOption?: boolean;
  /** A one-letter alias (`-v` of `--version`). */
  alias?: string;
}

export interface HelpSpec {
  usage: string;
  commands: readonly { command: string; describe: string }[];
  options: Readonly<Record<string, HelpOption>>;
  epilogue: string;
}

/** Words of `text` in lines of at most `width` columns; a longer word gets a line of its own. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** What yargs shows after an option's description: `[boolean] [required] [default: false]`. */
function extras(option: HelpOption): string {
  const type = option.array ? 'array' : option.type;
  const parts = [`[${type}]`];
  if (option.demandOption) parts.push('[required]');
  if (option.default !== undefined) parts.push(`[default: ${typeof option.default === 'string' ? `"${option.default}"` : JSON.stringify(option.default)}]`);
  return parts.join(' ');
}

/**
 * Two columns as yargs draws them: the left one as wide as its longest entry (at most half the
 * width) plus two spaces each side, the right one wrapped; `tail` (an option's type and default)
 * right-aligned on the last line, or on a line of its own when it does not fit.
 */
function table(rows: readonly { left: string; right: string; tail?: string }[], width: number): string[] {
  const leftWidth = Math.min(Math.max(...rows.map((r) => r.left.length)), Math.floor(width / 2)) + 4;
  const rightWidth = width - leftWidth;
  const out: string[] = [];
  for (const { left, right, tail } of rows) {
    const lines = wrapWords(right, rightWidth);
    // A left entry wider than its column stands on a line of its own, the text below it.
    const first = `  ${left}`;
    const alone = first.length + 2 > leftWidth;
    if (alone) out.push(first);
    if (tail) {
      const last = lines.length ? lines[lines.length - 1]! : '';
      if (lines.length && last.length + 2 + tail.length <= rightWidth) lines[lines.length - 1] = last + ' '.repeat(rightWidth - last.length - tail.length) + tail;
      else lines.push(' '.repeat(Math.max(0, rightWidth - tail.length)) + tail);
    }
    lines.forEach((line, i) => out.push(`${(i === 0 && !alone ? first : '').padEnd(leftWidth)}${line}`.trimEnd()));
  }
  return out;
}

/** The help text for `scriptName`, `width` columns wide (yargs': the terminal's, at most 80). */
export function renderHelp(spec: HelpSpec, scriptName: string, width = 80): string {
  const options: Record<string, HelpOption> = { ...spec.options, help: { type: 'boolean', describe: 'Show help' }, version: { type: 'boolean', describe: 'Show version number', alias: 'v' } };
  // yargs indents the long-only flags past the `-x, ` of those with a short alias.
  const flag = (name: string, option: HelpOption) => (option.alias ? `-${option.alias}, --${name}` : `    --${name}`);
  return [
    ...spec.usage.replace(/\$0/g, scriptName).split('\n').flatMap((line) => wrapWords(line, width)),
    '',
    'Commands:',
    ...table(spec.commands.map((c) => ({ left: `${scriptName} ${c.command}`, right: c.describe })), width),
    '',
    'Options:',
    ...table(Object.entries(options).map(([name, option]) => ({ left: flag(name, option), right: option.describe, tail: extras(option) })), width),
    '',
    ...wrapWords(spec.epilogue, width),
  ].join('\n');
}
