import { readFile, stat } from 'node:fs/promises';
import type { OperatorPage } from '@csomag/domain/operator-pages';
import MarkdownIt from 'markdown-it';

/**
 * The operator's pages (issue 29): Markdown files the operator provides, rendered to HTML that is
 * safe to show as it is — raw HTML in the file is escaped (`html: false`), and markdown-it refuses
 * javascript:, vbscript: and data: links other than images — so a page can never run script.
 */
const markdown = new MarkdownIt({ html: false, linkify: true });

/** A page longer than this is not a notice but a mistake: it is refused rather than served. */
const MAX_BYTES = 256 * 1024;

/** Rendered pages by file, kept while the file's modification time and size stay the same. */
const rendered = new Map<string, { stamp: string; html: string }>();

/** The page at `path` as HTML; null while the operator has not provided it (or it is empty). */
export async function renderOperatorPage(path: string): Promise<string | null> {
  let stamp: string;
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size === 0 || info.size > MAX_BYTES) return null;
    stamp = `${info.mtimeMs}:${info.size}`;
  } catch {
    return null;
  }
  const cached = rendered.get(path);
  if (cached?.stamp === stamp) return cached.html;
  const html = markdown.render(await readFile(path, 'utf8'));
  rendered.set(path, { stamp, html });
  return html;
}

/** The pages the operator has not provided yet (the start-up log names them). */
export async function missingOperatorPages(paths: Record<OperatorPage, string>): Promise<OperatorPage[]> {
  const missing: OperatorPage[] = [];
  for (const [page, path] of Object.entries(paths) as [OperatorPage, string][]) {
    if ((await renderOperatorPage(path)) === null) missing.push(page);
  }
  return missing;
}
