import { test } from '@japa/runner'
import ApiProblem from '#exceptions/api_problem'
import { UploadReader, delimiterOf, detectEncoding } from '#services/uploads/upload_reader'

/** The file in chunks of `size` bytes, as a request body arrives. */
async function* chunks(file: Buffer, size = 7) {
  for (let i = 0; i < file.length; i += size) yield file.subarray(i, i + size)
}

async function read(file: Buffer | string, filename: string | null = 'leads.csv', size = 7) {
  const reader = new UploadReader(chunks(Buffer.from(file), size), filename)
  const rows = []
  for await (const row of reader.rows()) rows.push(row)
  return { reader, rows }
}

async function refusal(
  file: Buffer | string,
  filename: string | null = 'leads.csv'
): Promise<ApiProblem & { extensions: { errors: { code: string }[] } }> {
  try {
    await read(file, filename)
  } catch (error) {
    if (error instanceof ApiProblem) return error as any
    throw error
  }
  throw new Error('the file was read')
}

test.group('Uploads / reader', () => {
  test('delimiters are decided on the header line', ({ assert }) => {
    assert.equal(delimiterOf('name,email,phone'), ',')
    assert.equal(delimiterOf('name;email;"a,b"'), ';')
    assert.equal(delimiterOf('name\temail\tphone'), '\t')
    assert.equal(delimiterOf('name|email|phone'), '|')
    assert.equal(delimiterOf('email'), ',')
  })

  test('encodings: BOMs, UTF-16 by its zero bytes, UTF-8, else Windows-1252', ({ assert }) => {
    assert.equal(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x61])), 'utf-8')
    assert.equal(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0])), 'utf-16le')
    assert.equal(detectEncoding(Buffer.from([0xfe, 0xff, 0, 0x61])), 'utf-16be')
    assert.equal(detectEncoding(Buffer.from('name,email', 'utf16le')), 'utf-16le')
    assert.equal(detectEncoding(Buffer.from('Zoë', 'utf8')), 'utf-8')
    assert.equal(detectEncoding(Buffer.from('Zoë', 'latin1'), true), 'windows-1252')
    assert.equal(detectEncoding(Buffer.from('Zoë, Zoë', 'latin1')), 'windows-1252')
    // A character cut at the end of the sample is no reason to doubt UTF-8.
    assert.equal(detectEncoding(Buffer.from('Zoë', 'utf8').subarray(0, 3)), 'utf-8')
  })

  test('CSV rows stream in chunk by chunk, quoted cells and ragged rows included', async ({
    assert,
  }) => {
    const { reader, rows } = await read(
      'name;email;note\r\n"Jansen; Jan";jan@example.nl;"two\nlines"\r\nonly;two\r\n\r\n;;\r\n'
    )
    assert.equal(reader.delimiter, ';')
    assert.deepEqual(reader.columns, ['name', 'email', 'note'])
    assert.deepEqual(rows, [
      ['Jansen; Jan', 'jan@example.nl', 'two\nlines'],
      ['only', 'two'],
    ])
  })

  test('a UTF-8 file whose multi-byte characters fall across chunks reads whole', async ({
    assert,
  }) => {
    const { rows } = await read('name\r\nZoë Ångström\r\nŁukasz\r\n', 'a.csv', 1)
    assert.deepEqual(rows, [['Zoë Ångström'], ['Łukasz']])
  })

  test('JSON Lines: objects, their keys as columns; other lines kept as text', async ({
    assert,
  }) => {
    const { reader, rows } = await read(
      '{"email":"a@example.nl","contact":{"phone":"+31612345678"}}\n[1]\n{oops\n\n{"email":"b@example.nl","age":3}\n',
      'leads.jsonl'
    )
    assert.equal(reader.format, 'jsonl')
    assert.deepEqual(reader.columns, ['email', 'contact.phone', 'age'])
    assert.lengthOf(rows, 4)
    assert.equal(rows[1], '[1]')
    assert.equal(rows[2], '{oops')
  })

  test('a file starting with "{" is JSON Lines whatever its name', async ({ assert }) => {
    const { reader } = await read('{"email":"a@example.nl"}\n', null)
    assert.equal(reader.format, 'jsonl')
  })

  test('NUL characters and lone surrogates never reach storage', async ({ assert }) => {
    const { rows } = await read('{"name":"a\\u0000b","x":"\\ud800"}\n', 'a.jsonl')
    assert.deepEqual(rows[0], { name: 'a\uFFFDb', x: '\uFFFD' })
  })

  test('unreadable files are refused with a code', async ({ assert }) => {
    assert.equal(
      (await refusal('name,email\r\n"unclosed,x\r\n')).extensions.errors[0].code,
      'malformed_csv'
    )
    assert.equal((await refusal('name,email\r\n')).extensions.errors[0].code, 'no_rows')
    assert.equal((await refusal('')).extensions.errors[0].code, 'no_rows')
    assert.equal((await refusal('a,a\r\n1,2\r\n')).extensions.errors[0].code, 'duplicate_column')
    const mixed = Buffer.concat([
      Buffer.from(`name\r\n${'Zoë\r\n'.repeat(20_000)}`),
      Buffer.from('Zoë\r\n', 'latin1'),
    ])
    assert.equal((await refusal(mixed)).extensions.errors[0].code, 'invalid_encoding')
  })
})
