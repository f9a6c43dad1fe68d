import { createHash } from 'node:crypto'
import { extname } from 'node:path'
import ApiProblem from '#exceptions/api_problem'
import moneyConfig from '#config/money'

/** A file attached to a publisher's answer, as it arrived. */
export type ReceivedFile = { filename: string | null; declaredType: string | null; content: Buffer }

/** A file accepted for the dispute: its kind checked, its digest taken. */
export type AcceptedFile = {
  filename: string
  contentType: string
  sizeBytes: number
  sha256: string
  content: Buffer
}

type Kind = { contentType: string; extensions: string[]; matches: (content: Buffer) => boolean }

const startsWith = (magic: number[]) => (content: Buffer) =>
  content.length >= magic.length && magic.every((byte, index) => content[index] === byte)

/* eslint-disable-next-line no-control-regex */
const BINARY_CONTROL = /[\u0000-\u0008\u000E-\u001F]/
/** UTF-8 text (a BOM allowed) without NUL or other binary control bytes. */
function isText(content: Buffer) {
  try {
    return !BINARY_CONTROL.test(new TextDecoder('utf-8', { fatal: true }).decode(content))
  } catch {
    return false
  }
}

/**
 * What a publisher may attach: documents, screenshots and exports. The kind is named by the
 * extension or the declared type and then checked against the bytes, so a renamed executable is
 * refused whatever it claims to be.
 */
const KINDS: Kind[] = [
  {
    contentType: 'application/pdf',
    extensions: ['.pdf'],
    matches: startsWith([0x25, 0x50, 0x44, 0x46, 0x2d]),
  },
  {
    contentType: 'image/png',
    extensions: ['.png'],
    matches: startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    contentType: 'image/jpeg',
    extensions: ['.jpg', '.jpeg'],
    matches: startsWith([0xff, 0xd8, 0xff]),
  },
  { contentType: 'text/plain', extensions: ['.txt'], matches: isText },
  { contentType: 'text/csv', extensions: ['.csv'], matches: isText },
]

export const ALLOWED_FILE_TYPES = KINDS.map((kind) => kind.contentType)

/* eslint-disable-next-line no-control-regex */
const UNSAFE_NAME = /[\u0000-\u001F\u007F/\\]/g

/** The name as shown in the thread: no path, no control characters, at most 200 characters. */
function safeFilename(filename: string | null, kind: Kind) {
  const name = (filename ?? '').replace(UNSAFE_NAME, '_').trim().slice(-200)
  return name || `attachment${kind.extensions[0]}`
}

function kindOf(file: ReceivedFile) {
  const extension = extname(file.filename ?? '').toLowerCase()
  const declared = (file.declaredType ?? '').split(';')[0].trim().toLowerCase()
  return (
    KINDS.find((kind) => extension !== '' && kind.extensions.includes(extension)) ??
    KINDS.find((kind) => kind.contentType === declared)
  )
}

/** 413 for a file over the size limit, as soon as it is seen to be. */
export function fileTooLarge(filename: string | null) {
  const megabytes = moneyConfig.disputes.maxFileBytes / (1024 * 1024)
  return new ApiProblem(
    413,
    'file_too_large',
    'Payload too large',
    `${filename ? `"${safeFilename(filename, KINDS[0])}"` : 'An attachment'} is larger than ${megabytes} MB; attach at most ${megabytes} MB per file.`
  )
}

/** 422 for one file more than an answer may carry. */
export function tooManyFiles() {
  return ApiProblem.unprocessable([
    {
      field: 'attachments',
      code: 'too_many_files',
      message: `Attach at most ${moneyConfig.disputes.maxFiles} files to one answer.`,
    },
  ])
}

/**
 * Checks each file's kind against its bytes and takes its SHA-256: 415 for a kind not allowed
 * (or bytes that are not what the name says), 422 for an empty file, 413 for one too large.
 */
export function acceptFiles(files: ReceivedFile[]): AcceptedFile[] {
  if (files.length > moneyConfig.disputes.maxFiles) throw tooManyFiles()
  return files.map((file, index) => {
    if (file.content.length > moneyConfig.disputes.maxFileBytes) throw fileTooLarge(file.filename)
    if (file.content.length === 0) {
      throw ApiProblem.unprocessable([
        { field: `attachments.${index}`, code: 'empty_file', message: 'The file is empty.' },
      ])
    }
    const kind = kindOf(file)
    if (!kind || !kind.matches(file.content)) {
      throw new ApiProblem(
        415,
        'unsupported_file_type',
        'Unsupported media type',
        `Attach PDF, PNG, JPEG, plain text or CSV files; ${kind ? `this file is not a valid ${kind.extensions[0].slice(1).toUpperCase()}` : 'this kind of file is not taken'}.`,
        { field: `attachments.${index}` }
      )
    }
    return {
      filename: safeFilename(file.filename, kind),
      contentType: kind.contentType,
      sizeBytes: file.content.length,
      sha256: createHash('sha256').update(file.content).digest('hex'),
      content: file.content,
    }
  })
}
