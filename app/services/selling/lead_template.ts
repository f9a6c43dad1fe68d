import { validateHeaderValue } from 'node:http'
import { Liquid, type Template } from 'liquidjs'
import { DOMParser } from '@xmldom/xmldom'
import type { FieldError } from '#exceptions/api_problem'
import {
  type ContentType,
  type HttpDestinationConfig,
  CONTROL_CHARACTERS,
  LIMITS,
  bodyEscapingOf,
} from '#services/selling/http_destination'
import { SAMPLE_LEAD, SAMPLE_PING_LEAD, hostileCopy } from '#services/selling/buyer_lead'
import { LEAD_FILTERS, liquidFilter } from '#services/selling/template_filters'

/** Where a rendered value lands: a body of some content type, or a header value. */
export type Escaping = ContentType | 'header'

/** A template that did not parse or render; the message is safe to show (no lead values). */
export class TemplateFailure extends Error {}

type OutputEscape = (this: any, value: unknown) => string

function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** XML 1.0 cannot carry these at all, even escaped (lone surrogates are made whole apart). */
/* eslint-disable-next-line no-control-regex */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

/**
 * Every `{{ }}` passes through its place's escape unless it ends in `| raw`,
 * so a lead's value cannot end a JSON string, close an XML element, add a
 * form field or a header line.
 */
const ESCAPES: Record<Escaping, OutputEscape> = {
  json: (value) => JSON.stringify(text(value)).slice(1, -1),
  xml: function (value) {
    const escaped = liquidFilter('xml_escape').call(
      this,
      text(value).toWellFormed().replace(NOT_XML, '')
    )
    // As references they survive a parser's line-end and attribute normalisation (XML 1.0 §2.11, §3.3.3).
    return escaped.replace(/[\t\n\r]/g, (char: string) => `&#${char.charCodeAt(0)};`)
  },
  form: (value) => encodeURIComponent(text(value)),
  header: (value) => text(value).replace(CONTROL_CHARACTERS, ' '),
}

function engineFor(escaping: Escaping) {
  const engine = new Liquid({
    outputEscape: ESCAPES[escaping],
    // Sandboxed: no file is ever read (no root, no partials), prototypes stay hidden.
    templates: {},
    relativeReference: false,
    dynamicPartials: false,
    ownPropertyOnly: true,
    strictFilters: true,
    timezoneOffset: 0,
    parseLimit: LIMITS.templateChars * 2,
    renderLimit: 200,
    memoryLimit: 4_000_000,
  })
  for (const tag of ['include', 'render', 'layout']) delete engine.tags[tag]
  for (const [name, filter] of Object.entries(LEAD_FILTERS)) engine.registerFilter(name, filter)
  // In a JSON body, `| json` writes a whole JSON value (quotes included), so it is not escaped again.
  if (escaping === 'json') {
    engine.registerFilter('json', {
      handler: (value: unknown) => JSON.stringify(value ?? null),
      raw: true,
    })
  }
  return engine
}

const engines = new Map<Escaping, Liquid>()
const parsed = new Map<string, Template[]>()

function engineOf(escaping: Escaping) {
  let found = engines.get(escaping)
  if (!found) engines.set(escaping, (found = engineFor(escaping)))
  return found
}

function parse(template: string, escaping: Escaping) {
  const key = `${escaping}\u0000${template}`
  let compiled = parsed.get(key)
  if (!compiled) {
    try {
      compiled = engineOf(escaping).parse(template)
    } catch (error) {
      throw new TemplateFailure(`The template does not parse: ${(error as Error).message}`)
    }
    if (parsed.size >= 1000) parsed.clear()
    parsed.set(key, compiled)
  }
  return compiled
}

/**
 * The template over a lead, escaped for where it lands; throws TemplateFailure.
 * Synchronous, so its time limit counts its own work, never other requests'.
 */
export function renderTemplate(template: string, escaping: Escaping, lead: object) {
  const compiled = parse(template, escaping)
  let rendered: string
  try {
    rendered = engineOf(escaping).renderSync(compiled, lead)
  } catch (error) {
    throw new TemplateFailure(`The template does not render: ${(error as Error).message}`)
  }
  if (Buffer.byteLength(rendered) > LIMITS.renderedBytes) {
    throw new TemplateFailure(`The template renders more than ${LIMITS.renderedBytes} bytes.`)
  }
  return rendered
}

function xmlProblem(document: string) {
  let problem: string | null = null
  try {
    new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') problem ??= message
      },
    }).parseFromString(document, 'text/xml')
  } catch (error) {
    problem ??= (error as Error).message
  }
  // xmldom lets a bare `&` pass; a buyer's parser will not.
  if (!problem && /&(?!(?:[A-Za-z][\w.-]*|#\d+|#x[0-9A-Fa-f]+);)/.test(document)) {
    problem = 'a bare "&" (write &amp;)'
  }
  return problem
}

function formProblem(document: string) {
  if (/[\s#]/.test(document)) return 'a space, line break or "#" (write %20, or use a filter)'
  if (/%(?![0-9A-Fa-f]{2})/.test(document)) return 'a "%" that is not a %XX escape'
  const pairs = document.split('&')
  if (document !== '' && pairs.some((pair) => !/^[^=]+=/.test(pair))) {
    return 'a field that is not name=value'
  }
  return null
}

/** Why a rendered body is not a valid document of its content type, or null. */
export function documentProblem(document: string, contentType: ContentType): string | null {
  if (contentType === 'json') {
    try {
      JSON.parse(document)
      return null
    } catch (error) {
      return (error as Error).message
    }
  }
  return contentType === 'xml' ? xmlProblem(document) : formProblem(document)
}

const DOCUMENT_NAMES: Record<ContentType, string> = {
  json: 'JSON',
  xml: 'XML',
  form: 'form (name=value&…)',
}

function bodyProblem(
  field: string,
  template: string,
  contentType: ContentType,
  sample: object
): FieldError | null {
  const problem = (code: string, message: string) => ({ field, code, message })
  try {
    const plain = documentProblem(renderTemplate(template, contentType, sample), contentType)
    if (plain) {
      return problem(
        'template_document',
        `On the sample lead the template is not valid ${DOCUMENT_NAMES[contentType]}: ${plain}.`
      )
    }
    const hostile = documentProblem(
      renderTemplate(template, contentType, hostileCopy(sample)),
      contentType
    )
    if (hostile) {
      return problem(
        'template_escaping',
        contentType === 'json'
          ? `A lead's text can break this JSON (${hostile}): put each {{ }} inside quotes, or write {{ value | json }} for a whole JSON value.`
          : `A lead's text can break this ${DOCUMENT_NAMES[contentType]} (${hostile}): do not end a value with | raw.`
      )
    }
  } catch (error) {
    if (!(error instanceof TemplateFailure)) throw error
    return problem('template', error.message)
  }
  return null
}

function headerProblem(name: string, template: string): FieldError | null {
  const field = `http.headers.${name}`
  try {
    validateHeaderValue(name, renderTemplate(template, 'header', SAMPLE_LEAD))
    return null
  } catch (error) {
    const message =
      error instanceof TemplateFailure
        ? error.message
        : 'The header renders to a value HTTP refuses.'
    return { field, code: 'template', message }
  }
}

/**
 * What is wrong with a destination's templates, checked when it is saved:
 * each parses, renders the sample lead into a valid document of its content
 * type, and still does when every text of the lead is hostile.
 */
export function templateProblem(config: HttpDestinationConfig): FieldError[] {
  const problems = [
    bodyProblem('http.template', config.template, bodyEscapingOf(config), SAMPLE_LEAD),
  ]
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    problems.push(headerProblem(name, value))
  }
  if (config.ping) {
    problems.push(
      bodyProblem('http.ping.template', config.ping.template, config.content_type, SAMPLE_PING_LEAD)
    )
  }
  return problems.filter((problem): problem is FieldError => problem !== null)
}
