import { createRequire } from 'node:module'
import { JSONPath } from 'jsonpath-plus'
import { DOMParser } from '@xmldom/xmldom'

/**
 * xpath's own typings pull the DOM library into every file of the project
 * (`/// <reference lib="dom" />`, which retypes Node's fetch and streams), so
 * it is loaded untyped, with the two functions used here.
 */
const xpath = createRequire(import.meta.url)('xpath') as {
  select(expression: string, node: unknown, single: true): unknown
  parse(expression: string): unknown
}

/** A buyer's answer as Leadgate reads it: a JSON value, an XML document, or text only. */
export type AnswerDocument =
  { kind: 'json'; value: unknown } | { kind: 'xml'; document: unknown } | { kind: 'text' }

export type BuyerAnswer = { status: number; contentType: string | null; body: string }

function parseJson(body: string): AnswerDocument | null {
  try {
    return { kind: 'json', value: JSON.parse(body) }
  } catch {
    return null
  }
}

function parseXml(body: string): AnswerDocument | null {
  let broken = false
  try {
    // xmldom fetches nothing: no DTD, no external entity is ever loaded.
    const document = new DOMParser({
      onError: (level) => {
        if (level !== 'warning') broken = true
      },
    }).parseFromString(body, 'text/xml')
    return broken || !document.documentElement ? null : { kind: 'xml', document }
  } catch {
    return null
  }
}

/**
 * JSON when the answer says so or looks so, XML likewise; anything else (or
 * a document that does not parse) is read by `matches` alone.
 */
export function readAnswer(answer: Pick<BuyerAnswer, 'contentType' | 'body'>): AnswerDocument {
  const type = (answer.contentType ?? '').toLowerCase()
  const start = answer.body.trimStart()[0]
  if (type.includes('json') || start === '{' || start === '[') {
    const json = parseJson(answer.body)
    if (json) return json
  }
  if (type.includes('xml') || start === '<') {
    const xml = parseXml(answer.body)
    if (xml) return xml
  }
  return { kind: 'text' }
}

/** A path starting with `$` is a JSON path; anything else is an XPath. */
export const isJsonPath = (path: string) => path.trimStart().startsWith('$')

type Scalar = string | number | boolean

function scalarOf(value: unknown): Scalar | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value
  }
  return JSON.stringify(value)
}

function nodeValue(found: any): Scalar | null {
  if (found === null || found === undefined) return null
  if (typeof found !== 'object') return found
  return (found.nodeType === 2 ? found.value : found.textContent) ?? null
}

/**
 * The first value the path finds (a JSON value, or an XML node's text), as
 * a scalar; objects and arrays as their JSON. Null when nothing is there, or
 * when the path's kind is not the answer's.
 */
export function valueAt(document: AnswerDocument, path: string): Scalar | null {
  try {
    if (document.kind === 'json' && isJsonPath(path)) {
      const found = JSONPath({ path, json: document.value as object, wrap: true, eval: false })
      return scalarOf((found as unknown[])[0])
    }
    if (document.kind === 'xml' && !isJsonPath(path)) {
      return nodeValue(xpath.select(path, document.document, true))
    }
  } catch {
    // A path that fails on this answer (an unknown XPath function) finds nothing.
  }
  return null
}

/** Why a path cannot be used, in words, or null. */
export function pathProblem(path: string): string | null {
  if (isJsonPath(path)) {
    let depth = 0
    for (const char of path) {
      depth += char === '[' ? 1 : char === ']' ? -1 : 0
      if (depth < 0) break
    }
    if (depth !== 0) return 'The JSON path has unbalanced brackets.'
    // Scripts (`[?(@.x)]`, `[(@.length-1)]`) would run buyer-written code: never evaluated.
    if (/\[\s*\??\s*\(/.test(path)) return 'JSON path filters and scripts are not supported.'
    try {
      JSONPath({ path, json: {}, wrap: true, eval: false })
      return null
    } catch (error) {
      return `The JSON path cannot be used: ${(error as Error).message}.`
    }
  }
  try {
    xpath.parse(path)
    return null
  } catch (error) {
    return `The path is neither a JSON path (starting with $) nor an XPath: ${(error as Error).message}.`
  }
}
