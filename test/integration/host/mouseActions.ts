/**
 * What the tests of drag and drop and hovers ask the runner to do with the real mouse in the
 * workbench (Chromium's own HTML5 drag, pointer events and hovers, as a user's): a test prints
 * `[[mouse:{…}]]` and the runner acts, then writes the outcome to the `done` file the test waits on.
 *
 * - `drag`: from one point to another, Shift held over the target when asked;
 * - `hover`: rests the pointer on a point until a hover shows, answers its text and can take a
 *   screenshot with it open (the runner's plain screenshots move the pointer away first);
 * - `drop-text`: a drop of plain text on a point, as text dragged from another application arrives
 *   (a drag that starts outside the browser cannot be made with the mouse: the page gets the
 *   drag events with a DataTransfer holding the text, which is what Chromium hands it then).
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { Page } from './codeServer.ts';

/** A point of the workbench, found by what the user sees. */
export type MousePoint =
  /** A row of a list or tree in the side bar whose text holds this (an Assets item, an Explorer file). */
  | { readonly treeItem: string }
  /** An editor tab by its label. */
  | { readonly tab: string }
  /** The active editor's n-th visible line (1-based): its start, or the middle of its character at `character` (0-based). */
  | { readonly editorLine: number; readonly character?: number };

export type MouseRequest =
  | { readonly action: 'drag'; readonly from: MousePoint; readonly to: MousePoint; readonly shift?: boolean; readonly done: string }
  | { readonly action: 'hover'; readonly at: MousePoint; readonly screenshot?: string; readonly done: string }
  | { readonly action: 'drop-text'; readonly on: MousePoint; readonly text: string; readonly done: string };

/** What the `done` file holds: `ok`, with the hover's text for a hover, or the error. */
export interface MouseOutcome {
  readonly ok?: boolean;
  readonly text?: string;
  readonly error?: string;
}

export async function performMouse(page: Page, request: MouseRequest): Promise<string> {
  let outcome: MouseOutcome;
  try {
    outcome = await act(page, request);
  } catch (error) {
    outcome = { error: String(error).split('\n')[0] };
  }
  // Whole or not at all: the test polls for the file and read one empty once (created, not yet written).
  writeFileSync(`${request.done}.partial`, JSON.stringify(outcome));
  renameSync(`${request.done}.partial`, request.done);
  return outcome.error ? `could not ${request.action}: ${outcome.error}` : describe(request);
}

function describe(request: MouseRequest): string {
  switch (request.action) {
    case 'drag':
      return `dragged ${JSON.stringify(request.from)} to ${JSON.stringify(request.to)}${request.shift ? ' with Shift' : ''}`;
    case 'hover':
      return `hovered ${JSON.stringify(request.at)}`;
    case 'drop-text':
      return `dropped text on ${JSON.stringify(request.on)}`;
  }
}

async function act(page: Page, request: MouseRequest): Promise<MouseOutcome> {
  switch (request.action) {
    case 'drag':
      await drag(page, request.from, request.to, request.shift === true);
      return { ok: true };
    case 'hover':
      return { ok: true, text: await hover(page, request.at, request.screenshot) };
    case 'drop-text':
      await dropText(page, request.on, request.text);
      return { ok: true };
  }
}

async function drag(page: Page, fromPoint: MousePoint, toPoint: MousePoint, shift: boolean): Promise<void> {
  const from = await pointOf(page, fromPoint);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  // Chromium starts the drag once the pointer has moved a few pixels with the button down.
  await page.mouse.move(from.x + 6, from.y + 6, { steps: 3 });
  const to = await pointOf(page, toPoint);
  if (shift) await page.keyboard.down('Shift');
  try {
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await pause(400);
    await page.mouse.up();
  } finally {
    if (shift) await page.keyboard.up('Shift');
  }
}

async function hover(page: Page, point: MousePoint, screenshot: string | undefined): Promise<string> {
  await page.mouse.move(700, 4);
  await pause(300);
  const at = await pointOf(page, point);
  await page.mouse.move(at.x, at.y, { steps: 4 });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const texts = await page
      .locator('.monaco-hover, .workbench-hover')
      .evaluateAll((elements) => elements.filter((element) => element.getBoundingClientRect().width > 0).map((element) => element.textContent ?? ''));
    const text = texts.sort((a, b) => b.length - a.length)[0]?.trim();
    // A hover whose providers are still resolving reads "Loading..." (seen under load); wait for its content.
    const loading = text?.includes('Loading...') === true && Date.now() <= deadline;
    if (text && !loading) {
      // Highlighting and the lazily resolved parts land a moment after the hover opens.
      await pause(700);
      if (screenshot) await page.screenshot({ path: screenshot });
      const settled = await page
        .locator('.monaco-hover, .workbench-hover')
        .evaluateAll((elements) => elements.filter((element) => element.getBoundingClientRect().width > 0).map((element) => element.textContent ?? ''));
      return settled.sort((a, b) => b.length - a.length)[0]?.trim() || text;
    }
    if (Date.now() > deadline) throw new Error(`no hover showed over ${JSON.stringify(point)}`);
    await pause(200);
  }
}

async function dropText(page: Page, point: MousePoint, text: string): Promise<void> {
  const at = await pointOf(page, point);
  await page.mouse.move(at.x, at.y);
  const script = `(() => {
    const target = document.elementFromPoint(${at.x}, ${at.y});
    if (!target) return 'nothing at the point';
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(text)});
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: data, clientX: ${at.x}, clientY: ${at.y} }));
    }
    return '';
  })()`;
  const problem = await page.evaluate<string>(script);
  if (problem) throw new Error(problem);
}

async function pointOf(page: Page, point: MousePoint): Promise<{ x: number; y: number }> {
  if ('editorLine' in point) {
    const lines = await page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line').evaluateAll((elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        // The line's text is one span: its width over its length is the (monospace) character width.
        const text = element.firstElementChild;
        const width = text ? text.getBoundingClientRect().width / Math.max(1, (text.textContent ?? '').length) : 0;
        return { x: rect.left, y: rect.top, height: rect.height, charWidth: width };
      }),
    );
    const line = [...lines].sort((a, b) => a.y - b.y)[point.editorLine - 1];
    if (!line) throw new Error(`the active editor shows no line ${point.editorLine}`);
    const x = point.character === undefined ? line.x + 2 : line.x + (point.character + 0.5) * line.charWidth;
    return { x, y: line.y + line.height / 2 };
  }
  const locator = 'tab' in point
    ? page.locator('.tabs-container .tab', { hasText: point.tab }).first()
    : page.locator('.part.sidebar .monaco-list-row', { hasText: point.treeItem }).first();
  const box = await locator.boundingBox({ timeout: 10_000 });
  if (!box) throw new Error(`${JSON.stringify(point)} is not visible`);
  return { x: box.x + Math.min(60, box.width / 2), y: box.y + box.height / 2 };
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
