// The bare app's content pages (bench/content.ts): a page of the site as it was answered, its
// markup as plain React elements and its loaders' data as one loader's, so that the bare app
// renders and sends what the site's page does, without any of the site's code.
import { createElement, Fragment, type ReactNode } from 'react'

/** An element as [tag, props, ...children], or a text. */
export type ContentNode = string | [string, Record<string, unknown>, ...ContentNode[]]

export function render(node: ContentNode): ReactNode {
  if (typeof node === 'string') return node
  const [tag, props, ...children] = node
  return createElement(tag, props, ...children.map(render))
}

/** The nodes side by side, as a page's content. */
export function renderAll(nodes: readonly ContentNode[]): ReactNode {
  return createElement(Fragment, null, ...nodes.map(render))
}
