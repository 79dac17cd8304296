/** The link check of the repository's Markdown: docs/development.md#documentation. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';

export interface MarkdownLink {
  target: string;
  line: number;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'coverage', 'tmp']);

/** GitHub's heading slug (github-slugger). */
export function slugify(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

/** Fenced code blocks blanked: their text is neither heading nor link. */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split(/\r?\n/).map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined) {
      if (opener) {
        fence = opener[1];
        return '';
      }
      return line;
    }
    if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length && line.trim() === opener[1]) fence = undefined;
    return '';
  });
}

function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
}

/** Duplicate headings numbered -1, -2, … as GitHub does; `<a id>`/`<a name>` tags too. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading) {
      const base = slugify(heading[1] ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const tag of line.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(tag[1]);
  }
  return anchors;
}

export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const add = (target: string) => links.push({ target: target.trim(), line: index + 1 });
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (definition) {
      add(definition[1].replace(/^<|>$/g, ''));
      return;
    }
    // The destination: <…>, or text without spaces whose parentheses balance (one level deep).
    for (const inline of line.matchAll(/\]\(\s*(<[^>]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
      add(inline[1].replace(/^<|>$/g, ''));
    }
    for (const auto of line.matchAll(/<((?:https?|mailto):[^\s<>]+)>/gi)) add(auto[1]);
    for (const attribute of line.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) add(attribute[1]);
  });
  return links;
}

/** Undefined when the link is sound; `file` and `root` are absolute paths. */
export function checkLink(file: string, target: string, root: string, anchorsOfFile: (path: string) => Set<string>): string | undefined {
  if (target === '') return 'empty link';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (name === 'mailto') return /^mailto:[^@\s]+@[^@\s]+$/i.test(target) ? undefined : 'not a valid mailto: address';
    if (name !== 'http' && name !== 'https') return `unexpected scheme "${name}:" (only http, https and mailto links are allowed)`;
    if (!/^https?:\/\/[^/?#]/i.test(target)) return `not a valid URL: ${name}:// and a host expected`;
    try {
      const url = new URL(target);
      return url.hostname === '' ? 'URL without a host' : undefined;
    } catch {
      return 'not a valid URL';
    }
  }
  if (target.startsWith('//')) return 'protocol-relative URL: write https://';
  const hash = target.indexOf('#');
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : target.slice(hash + 1);
  const withoutQuery = pathPart.split('?')[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(withoutQuery);
  } catch {
    return 'malformed percent-escape in the path';
  }
  if (decoded.startsWith('/')) return 'a path from the site root: write it relative to this file';
  const destination = decoded === '' ? file : resolve(dirname(file), decoded);
  const fromRoot = relative(root, destination);
  if (fromRoot.startsWith('..') || resolve(root, fromRoot) !== destination) return 'points outside the repository';
  if (!existsSync(destination)) return `no such file: ${fromRoot.split(sep).join('/') || '.'}`;
  if (anchor === undefined) return undefined;
  if (anchor === '') return 'empty #anchor';
  if (statSync(destination).isDirectory()) return 'an #anchor into a folder';
  if (!destination.endsWith('.md')) {
    return /^L\d+(?:-L\d+)?$/.test(anchor) ? undefined : `#${anchor} points into a file that is not Markdown (only #L<line> is allowed there)`;
  }
  let decodedAnchor: string;
  try {
    decodedAnchor = decodeURIComponent(anchor);
  } catch {
    return 'malformed percent-escape in the #anchor';
  }
  if (anchorsOfFile(destination).has(decodedAnchor)) return undefined;
  const where = destination === file ? 'this file' : relative(root, destination).split(sep).join('/');
  return `no heading with the anchor #${decodedAnchor} in ${where}`;
}

export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(root, path).split(sep).join(posix.sep));
    }
  };
  walk(root);
  return found.sort();
}

export function brokenLinks(root: string, files = markdownFiles(root)): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOfFile = (path: string) => {
    let anchors = anchorCache.get(path);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path, 'utf8'));
      anchorCache.set(path, anchors);
    }
    return anchors;
  };
  const broken: string[] = [];
  for (const file of files) {
    const absolute = join(root, file);
    for (const link of linksOf(readFileSync(absolute, 'utf8'))) {
      const reason = checkLink(absolute, link.target, root, anchorsOfFile);
      if (reason) broken.push(`${file}:${link.line}: ${link.target}: ${reason}`);
    }
  }
  return broken;
}
