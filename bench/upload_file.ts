import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

const HEADER = [
  'name',
  'email',
  'phone',
  'zip',
  'country',
  'utm_source',
  'utm_campaign',
  'consent_given',
  'consent_text',
  'consent_timestamp',
  'consent_ip',
  'age',
  'homeowner',
]

/**
 * Writes the benchmark's CSV: `rows` leads, one in ten faulty (a phone that
 * is no number, consent not given, a copy of an earlier row's e-mail, a
 * ragged line, by turns), streamed to disk as the upload streams it in.
 */
export async function writeBenchCsv(path: string, rows: number) {
  const out = createWriteStream(path)
  const consentAt = new Date(Date.now() - 3_600_000).toISOString()
  const write = async (line: string) => {
    if (!out.write(`${line}\r\n`)) await once(out, 'drain')
  }
  await write(HEADER.join(','))
  let faulty = 0
  for (let i = 1; i <= rows; i++) {
    const n = String(i).padStart(7, '0')
    const cells = [
      'Jan Jansen',
      `bench.${n}@example.nl`,
      `+3161${n}`,
      '1012 AB',
      'NL',
      'facebook',
      'bench-upload',
      'yes',
      '"I agree that Demo Energy may contact me about my energy contract."',
      consentAt,
      '203.0.113.9',
      String(20 + (i % 50)),
      i % 2 === 0 ? 'true' : 'false',
    ]
    if (i % 10 === 0) {
      faulty++
      const kind = (i / 10) % 4
      if (kind === 0) cells[2] = '0612'
      else if (kind === 1) cells[7] = 'no'
      else if (kind === 2) cells[1] = `bench.${String(i - 1).padStart(7, '0')}@example.nl`
      else cells.splice(5)
    }
    await write(cells.join(','))
  }
  out.end()
  await once(out, 'finish')
  return { rows, faulty }
}
